package dev.gq.cli;

/** How {@code gq ps} reads and shows a long list: the ended jobs under the live ones, and the page read at a time. */
final class PsPages {
  /** Ended jobs shown under the live ones by default. */
  static final int RECENT = 20;
  /** Jobs read at a time, so that no list of any length is held whole. */
  static final int PAGE = 500;

  private PsPages() {}
}
