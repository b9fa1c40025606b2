package dev.gq.core.ledger;

import dev.gq.core.job.JobState;

/**
 * What the history says about an ended job that a request names: its retry
 * lineage, the newest attempt of that lineage and that attempt's state. The daemon looks these up
 * before asking the Scheduler, since ended jobs are not in the ledger; a terminal state never
 * changes, so the fact stays true.
 */
public record LineageFact(long jobId, long lineage, long newest, JobState newestState) {}
