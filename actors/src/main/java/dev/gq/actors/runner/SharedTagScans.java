package dev.gq.actors.runner;

import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The process table the runners read, where the look at every process's job tag that each job's
 * end takes ({@link #valuesCarried} of {@code GQ_JOB_TAG}, all but the daemon) is shared: runners
 * whose jobs end together wait for one scan begun after they asked, not one each
 * ({@link FreshReadings}). Everything else goes to {@code procs} as asked.
 */
final class SharedTagScans implements ProcessTable {
  private final ProcessTable procs;
  private final String name;
  private final long except;
  private final FreshReadings<Set<String>> scans;

  SharedTagScans(ProcessTable procs, String name, long except) {
    this.procs = procs;
    this.name = name;
    this.except = except;
    this.scans = new FreshReadings<>(() -> procs.valuesCarried(name, except));
  }

  /** The runners' process table for this daemon: job tags shared, the daemon itself left out. */
  static ProcessTable of(ProcessTable procs) {
    return new SharedTagScans(procs, JobEnvironment.TAG, JobEnvironment.SELF);
  }

  @Override
  public Set<String> valuesCarried(String name, long except) {
    if (name.equals(this.name) && except == this.except) return scans.get();
    return procs.valuesCarried(name, except);
  }

  @Override public Optional<ProcInfo> info(long pid) { return procs.info(pid); }
  @Override public Optional<String> environ(long pid, String name) { return procs.environ(pid, name); }
  @Override public boolean carries(long pid, String name, String value) { return procs.carries(pid, name, value); }
  @Override public List<ProcInfo> all() { return procs.all(); }
  @Override public Set<Long> pids() { return procs.pids(); }
  @Override public String bootId() { return procs.bootId(); }
  @Override public long uid(long pid) { return procs.uid(pid); }
  @Override public List<String> cmdline(long pid) { return procs.cmdline(pid); }
  @Override public Optional<String> cwd(long pid) { return procs.cwd(pid); }
  @Override public Optional<String> stdoutFile(long pid) { return procs.stdoutFile(pid); }
  @Override public List<String> openFiles(long pid) { return procs.openFiles(pid); }
  @Override public Optional<Instant> startTime(ProcInfo p) { return procs.startTime(p); }
}
