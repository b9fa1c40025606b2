package dev.gq.persistence;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event as stored in the journal, decoded without the event classes: its sequence number,
 * when it was stored, its type (the simple class name, e.g. {@code JobReserved}), the job it is
 * about (null for an event about no one job, such as {@code QueuePaused}, or an unreadable
 * payload) and its other fields, flat and in snake_case (see {@link EventFields}). Field values
 * are strings, numbers, booleans, lists or null.
 */
public record JournalEntry(long seq, Instant time, String type, Long jobId, Map<String, Object> fields) {
  public JournalEntry {
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }
}
