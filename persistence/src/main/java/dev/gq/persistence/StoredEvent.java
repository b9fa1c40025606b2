package dev.gq.persistence;

/** One journal row as pekko-persistence-jdbc stored it: its sequence number and serialized payload. */
public record StoredEvent(long seq, int serializerId, String manifest, byte[] payload) {}
