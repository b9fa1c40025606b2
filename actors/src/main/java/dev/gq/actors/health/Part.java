package dev.gq.actors.health;

/**
 * The parts of the daemon the guardian supervises: their names in {@code gq daemon status} and the
 * log, the unit of work each reports, their actor names, and whether a failure can be survived by
 * starting the part again (every part but the Scheduler, whose runners and leases a restart would
 * drop: a Scheduler that fails stops the daemon).
 */
public enum Part {
  GPU_WATCHER("gpu watcher", "reading", "gpu-watcher", true),
  HISTORY("history", "update", "projector", true),
  RECONCILER("reconciler", "pass", "reconciler", true),
  NOTIFIER("notifier", "pass", "notifier", true),
  CLUSTER("cluster bridge", "pass", "cluster-bridge", true),
  SCHEDULER("scheduler", "request", "scheduler", false);

  private final String text;
  private final String work;
  private final String actorName;
  private final boolean restartable;

  Part(String text, String work, String actorName, boolean restartable) {
    this.text = text;
    this.work = work;
    this.actorName = actorName;
    this.restartable = restartable;
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
}
