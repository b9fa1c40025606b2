package dev.gq.core.job;

/**
 * One job another job waits for: {@code --after N} starts once job N has ended, whatever its result;
 * {@code --after-ok N} ({@code okOnly}) only once it ended DONE, and is cancelled when it ends any
 * other way. When N is retried, the dependency follows the newest attempt of N's lineage.
 */
public record Dependency(long jobId, boolean okOnly) {

  @Override
  public String toString() {
    return (okOnly ? "after-ok " : "after ") + jobId;
  }
}
