package dev.gq.persistence;

import dev.gq.core.job.JobState;

/** A job of the history by id, its state and the log path it was given (null when none). */
public record JobRef(long id, JobState state, String logPath) {}
