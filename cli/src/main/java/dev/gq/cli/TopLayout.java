package dev.gq.cli;

/**
 * How many lines each part of {@code gq top}'s list screen gets at a height. The GPU lines and the
 * notes under them always stay; the rest is handed out in this order, so that a small screen gives
 * up the last of it first: the live jobs and why they wait (with the line that counts the ended jobs
 * below, and at least a few job rows), the users' lines, the groups and events (at most a few
 * each, more on a tall screen), the GPUs' process lines, then the ended jobs. Height 0 (one screen
 * printed as text) gives everything. Pure.
 */
record TopLayout(int jobs, int processes, int users, int groups, int events) {
  /** The lines of the title, the jobs' header and the keys. */
  private static final int FRAME = 3;

  static TopLayout of(int height, int gpuLines, Counts c) {
    if (height <= 0) return new TopLayout(c.shown(), c.processes(), c.users(), c.groups(), c.events());
    int left = Math.max(0, height - FRAME - gpuLines);
    boolean tall = height >= 40;
    int few = Math.min(c.shown(), tall ? 10 : 4);
    int wanted = Math.max(1, Math.max(few, c.shown() > c.live() ? c.live() + 1 : c.live()));
    int jobs = Math.min(left, wanted);
    left -= jobs;
    int users = Math.min(left, c.users());
    left -= users;
    int cap = tall ? 8 : 3;
    int groups = 0;
    int events = 0;
    while (left > 0 && (groups < Math.min(cap, c.groups()) || events < Math.min(cap, c.events()))) {
      if (groups < Math.min(cap, c.groups()) && (groups <= events || events >= Math.min(cap, c.events()))) groups++;
      else events++;
      left--;
    }
    int processes = Math.min(left, c.processes());
    left -= processes;
    jobs += Math.min(left, Math.max(0, c.shown() - jobs));
    return new TopLayout(jobs, processes, users, groups, events);
  }

  /** What there is to show: the jobs listed (and how many of them are live) and the lines of each other part. */
  record Counts(int shown, int live, int users, int groups, int events, int processes) {}
}
