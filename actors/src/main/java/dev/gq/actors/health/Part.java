package dev.gq.actors.health;

/**
 * The parts of the daemon the guardian supervises: their names in {@code gq daemon status} and the
 * log, the unit of work each reports, their actor names, whether a failure can be survived by
 * starting the part again (every part but the Scheduler, whose runners and leases a restart would
 * drop: a Scheduler that fails stops the daemon), and whether the daemon must stop when the part
 * stops for good (every part but the GPU timeline, whose record only {@code gq report} reads).
 */
public enum Part {
  GPU_WATCHER("gpu watcher", "reading", "gpu-watcher", true, true),
  HISTORY("history", "update", "projector", true, true),
  RECONCILER("reconciler", "pass", "reconciler", true, true),
  NOTIFIER("notifier", "pass", "notifier", true, true),
  CLUSTER("cluster bridge", "pass", "cluster-bridge", true, true),
  GPU_TIMELINE("gpu timeline", "write", "gpu-timeline", true, false),
  SCHEDULER("scheduler", "request", "scheduler", false, true);

  private final String text;
  private final String work;
  private final String actorName;
  private final boolean restartable;
  private final boolean essential;

  Part(String text, String work, String actorName, boolean restartable, boolean essential) {
    this.text = text;
    this.work = work;
    this.actorName = actorName;
    this.restartable = restartable;
    this.essential = essential;
  }

  /** The part's name for people. */
  public String text() {
    return text;
  }

  /** One unit of the part's work ("reading", "update", "pass"). */
  public String work() {
    return work;
  }

  public String actorName() {
    return actorName;
  }

  public boolean restartable() {
    return restartable;
  }

  /** Whether the daemon stops when this part stops for good; one that is not stays stopped, shown so. */
  public boolean essential() {
    return essential;
  }
}
