package dev.gq.cli;

import java.util.Locale;

/**
 * What of {@code gq ps}'s default list a terminal shows, so that the header stays on screen: the
 * live jobs and as many of the newest ended ones as fit, with a line left for the note on what is
 * left out and one for the shell's next prompt. When the live jobs alone do not fit, every live
 * job that is not waiting is shown, then as many of the newest waiting ones as fit, no ended one,
 * and a closing line says how many waiting jobs are not shown and how to list them all.
 * {@code waiting} is -1 when every waiting job is shown (always, off a terminal). Pure.
 */
record ScreenFit(int ended, long waiting, String closing) {
  /** Ended jobs shown with the live ones when the screen has room (or off a terminal). */
  static final int RECENT = PsPages.RECENT;

  /** Whether waiting jobs are left out, so that the closing line follows the table. */
  boolean cut() {
    return waiting >= 0;
  }

  /**
   * What fits {@code height} lines of {@code width} columns (height 0: no terminal, all of it), with
   * {@code besides} lines printed besides the table, {@code busy} live jobs that are not waiting,
   * {@code queued} waiting ones and {@code ended} ended ones at hand; {@code list} is the command
   * that prints the whole list ({@code gq ps}, with its group).
   */
  static ScreenFit of(int height, int width, int besides, long busy, long queued, int ended, String list) {
    int recent = Math.min(RECENT, ended);
    if (height <= 0) return new ScreenFit(recent, -1, null);
    long live = busy + queued;
    // the header, the line saying what was left out, the shell's next prompt
    long room = height - 3L - besides;
    if (live <= room) return new ScreenFit((int) Math.min(recent, Math.max(0, room - live)), -1, null);
    // only waiting jobs are left out: busy ones that fill the screen are all shown
    if (queued == 0) return new ScreenFit(0, -1, null);
    String closing = closing(queued, list);
    long rows = height - 2L - besides - lines(closing, width);
    long shown = Math.max(0, Math.min(queued, rows - busy));
    return new ScreenFit(0, shown, closing(queued - shown, list));
  }

  /** The line under a table whose {@code more} waiting jobs are not shown. */
  static String closing(long more, String list) {
    return String.format(Locale.ROOT, "%s %,d more waiting %s not shown: %s | less, or %s --json", TextTable.ELLIPSIS, more,
        more == 1 ? "job" : "jobs", list, list);
  }

  /** How many lines of a terminal {@code width} columns wide (80 when not known) {@code line} takes. */
  static int lines(String line, int width) {
    int w = width > 0 ? width : 80;
    return Math.max(1, (line.length() + w - 1) / w);
  }
}
