package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@code gq top} learns of the processes a GPU lists: the facts the ownership rule reads, as the GPU watcher reads them. */
class ProcessViewsTest {
  private static final Map<Long, ProcInfo> PROCS = Map.of(
      1L, new ProcInfo(1, 0, 1, 1, 10, 'S', "init"),
      40L, new ProcInfo(40, 1, 40, 40, 20, 'S', "bash"),
      41L, new ProcInfo(41, 40, 40, 40, 30, 'R', "python"),
      42L, new ProcInfo(42, 40, 42, 7, 40, 'R', "python"),
      43L, new ProcInfo(43, 1, 43, 43, 50, 'Z', "python"));

  private static final ProcessTable TABLE = new ProcessTable() {
    @Override
    public Optional<ProcInfo> info(long pid) {
      return Optional.ofNullable(PROCS.get(pid));
    }

    @Override
    public Optional<String> environ(long pid, String name) {
      return pid == 42 && name.equals("GQ_JOB_TAG") ? Optional.of("tag-9") : Optional.empty();
    }

    @Override
    public List<ProcInfo> all() {
      return List.copyOf(PROCS.values());
    }

    @Override
    public String bootId() {
      return "boot";
    }
  };

  @Test
  void eachListedProcessCarriesItsSessionGroupTagAndParents() {
    Map<Long, ProcessView> v = ProcessViews.of(TABLE, List.of(41L, 42L, 43L, 99L));
    var untagged = v.get(41L).facts();
    assertEquals(40, untagged.sid());
    assertEquals(40, untagged.pgid());
    assertNull(untagged.tag());
    assertEquals(List.of(new ProcessRef(41, 30), new ProcessRef(40, 20)), untagged.lineage(),
        "a process without a tag may be an adopted job's: its parents are read");
    var tagged = v.get(42L).facts();
    assertEquals("tag-9", tagged.tag());
    assertEquals(7, tagged.sid());
    assertEquals(List.of(), tagged.lineage());
    assertNull(v.get(43L).facts(), "a zombie is nobody's, as for the GPU watcher");
    assertFalse(v.containsKey(99L), "a pid /proc does not show is absent");
    assertEquals("[python]", v.get(41L).command());
  }
}
