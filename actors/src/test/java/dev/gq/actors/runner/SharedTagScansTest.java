package dev.gq.actors.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The runners' table answers the job tags from its shared scan, and everything else from the table it wraps. */
class SharedTagScansTest {
  @Test
  void theJobTagsComeFromAScanOfTheWholeTableAndOtherQuestionsGoThrough() {
    AtomicInteger reads = new AtomicInteger();
    ProcessTable table = new ProcessTable() {
      @Override public Optional<ProcInfo> info(long pid) { return Optional.empty(); }
      @Override public Optional<String> environ(long pid, String name) {
        reads.incrementAndGet();
        return pid == 7 ? Optional.of(name.equals("GQ_JOB_TAG") ? "t-7" : "x") : Optional.empty();
      }
      @Override public List<ProcInfo> all() { return List.of(); }
      @Override public Set<Long> pids() { return Set.of(7L, 8L, JobEnvironment.SELF); }
      @Override public String bootId() { return "b"; }
    };
    ProcessTable shared = SharedTagScans.of(table);
    assertEquals(Set.of("t-7"), shared.valuesCarried("GQ_JOB_TAG", JobEnvironment.SELF));
    assertEquals(2, reads.get(), "every process but the daemon, once");
    assertEquals(Set.of("x"), shared.valuesCarried("OTHER", JobEnvironment.SELF), "another variable: asked of the table");
    assertEquals(Optional.of("t-7"), shared.environ(7, "GQ_JOB_TAG"));
  }
}
