package dev.gq.core.ledger;

import dev.gq.core.job.JobState;
import java.time.Instant;

/**
 * What the history says about a job a deletion names: its state and when it ended
 * (null while it has not). The daemon looks these up before asking the Scheduler, since ended jobs
 * are not in the ledger; an ended job's state never changes, so the fact stays true.
 */
public record HistoryFact(long jobId, JobState state, Instant endTime) {}
