package dev.gq.core.progress;

/**
 * Where an estimate of a running job's progress came from, in the order they are tried: the first
 * that yields wins. {@link #label} is the name {@code gq eta} and {@code gq show} print.
 */
public enum Source {
  PROGRESS_FILE("progress file"),
  TQDM("tqdm"),
  LOG_PATTERN("log pattern"),
  CHECKPOINT("checkpoint");

  private final String label;

  Source(String label) {
    this.label = label;
  }

  /** The name shown to users. */
  public String label() {
    return label;
  }
}
