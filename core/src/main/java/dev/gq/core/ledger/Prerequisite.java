package dev.gq.core.ledger;

import dev.gq.core.job.JobState;

/**
 * A waiting job's dependency as the Ledger tracks it: the job it waits for now ({@code jobId}, the
 * newest attempt of lineage {@code lineage}), whether only success will do ({@code okOnly}), and
 * how that job ended ({@code ended}, null while it has not). A retry in the lineage moves the
 * dependency to the new attempt and clears {@code ended}. A PREEMPTED job has not done its work:
 * its dependency is neither met nor broken, and waits for the resume.
 */
public record Prerequisite(long jobId, long lineage, boolean okOnly, JobState ended) {

  /** Ended in a way that lets the dependent start. */
  public boolean met() {
    return ended != null && ended != JobState.PREEMPTED && (!okOnly || ended == JobState.DONE);
  }

  /** Ended in a way that means the dependent can never start (only for okOnly). */
  public boolean broken() {
    return ended != null && ended != JobState.PREEMPTED && okOnly && ended != JobState.DONE;
  }

  Prerequisite endedAs(JobState s) {
    return new Prerequisite(jobId, lineage, okOnly, s);
  }

  Prerequisite movedTo(long newJobId) {
    return new Prerequisite(newJobId, lineage, okOnly, null);
  }
}
