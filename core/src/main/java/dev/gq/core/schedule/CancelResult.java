package dev.gq.core.schedule;

/** What a cancel did to one id: {@code kind} names it for scripts, {@code message} for people. */
public record CancelResult(long id, String kind, String message) {}
