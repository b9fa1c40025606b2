package dev.gq.core.ledger;

/**
 * How a batch of any length is queued: in parts of at most {@link Submissions#MAX_BATCH} lines,
 * each one write, all or nothing, in the batch's order. A part refused after others were stored
 * leaves those queued; its refusal says which lines are queued and how to finish the batch safely.
 */
public final class BatchParts {
  private BatchParts() {}

  /** How many parts a batch of {@code lines} lines is queued in. */
  public static int count(int lines) {
    return (lines + Submissions.MAX_BATCH - 1) / Submissions.MAX_BATCH;
  }

  /** Where part {@code part} (from 0) of a batch of {@code lines} lines starts, as an index into its lines. */
  public static int start(int part) {
    return part * Submissions.MAX_BATCH;
  }

  /** Where part {@code part} ends (exclusive). */
  public static int end(int part, int lines) {
    return Math.min(lines, start(part + 1));
  }

  /**
   * The refusal of a part after the first: {@code why} the part starting at batch line
   * {@code firstRefused} was refused, and that the lines before it ({@code queued} of them, up to line
   * {@code lastQueued}) stay queued.
   */
  public static String partlyQueued(String why, int firstRefused, int lastQueued, int queued) {
    return "batch line " + firstRefused + " and the lines after it were not queued: " + why + "; the " + queued
        + " lines before it (up to line " + lastQueued + ") are queued and stay so: submit the lines from line " + firstRefused
        + " on again, or the whole batch again if every line has a \"key\" (the lines already queued are then skipped)";
  }
}
