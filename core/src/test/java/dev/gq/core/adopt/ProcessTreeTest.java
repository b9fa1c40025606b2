package dev.gq.core.adopt;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.Ownership;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTree;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An adopted job's processes: the adopted one and its descendants by parent pid, proved by start ticks. */
class ProcessTreeTest {
  private static ProcInfo p(long pid, long ppid, long ticks) {
    return new ProcInfo(pid, ppid, 4000, 3900, ticks, 'S', "p");
  }

  private static final ProcInfo SHELL = p(4000, 1, 100);
  private static final ProcInfo ROOT = p(4242, 4000, 200);
  private static final ProcInfo CHILD = p(4300, 4242, 300);
  private static final ProcInfo GRANDCHILD = p(4400, 4300, 400);
  private static final ProcInfo SIBLING = p(4500, 4000, 500);

  @Test
  void lineageFollowsParentsUpToInit() {
    Map<Long, ProcInfo> all = Map.of(4000L, SHELL, 4242L, ROOT, 4300L, CHILD, 4400L, GRANDCHILD);
    assertEquals(List.of(new ProcessRef(4400, 400), new ProcessRef(4300, 300), new ProcessRef(4242, 200),
        new ProcessRef(4000, 100)), ProcessTree.lineage(GRANDCHILD, pid -> Optional.ofNullable(all.get(pid))));
  }

  @Test
  void aParentPidRecycledForAYoungerProcessIsNoParent() {
    ProcInfo recycled = p(4242, 4000, 999);
    assertEquals(List.of(ProcessRef.of(CHILD)),
        ProcessTree.lineage(CHILD, pid -> pid == 4242 ? Optional.of(recycled) : Optional.empty()));
  }

  @Test
  void aliveKeepsTheRootAndItsDescendantsAndNothingElse() {
    Set<ProcessRef> alive = ProcessTree.alive(Set.of(ProcessRef.of(ROOT)), List.of(SHELL, ROOT, CHILD, GRANDCHILD, SIBLING));
    assertEquals(Set.of(ProcessRef.of(ROOT), ProcessRef.of(CHILD), ProcessRef.of(GRANDCHILD)), alive);
  }

  @Test
  void aDescendantSeenBeforeOutlivesTheRootAndARecycledRootPidIsNotIt() {
    Set<ProcessRef> known = Set.of(ProcessRef.of(ROOT), ProcessRef.of(CHILD));
    ProcInfo orphan = p(4300, 1, 300);
    assertEquals(Set.of(ProcessRef.of(CHILD)), ProcessTree.alive(known, List.of(SHELL, orphan)));
    assertEquals(Set.of(), ProcessTree.alive(Set.of(ProcessRef.of(ROOT)), List.of(SHELL, p(4242, 4000, 201))));
    ProcInfo zombie = new ProcInfo(4242, 4000, 4000, 3900, 200, 'Z', "p");
    assertEquals(Set.of(), ProcessTree.alive(Set.of(ProcessRef.of(ROOT)), List.of(zombie)));
  }

  @Test
  void anAdoptedJobOwnsItsTreeNeverItsSessionOrGroup() {
    Job adopted = new Job(5, new JobSpec(List.of("python"), "/", Map.of(), 1, null, null, null), JobState.RUNNING,
        Instant.EPOCH, Instant.EPOCH, null, List.of(), ProcessIdentity.adoptedProcess(4242, 200, "b"), null, null, null,
        "tag-5", null);
    var childFacts = new ProcessFacts(4300, 3900, 4000, null, List.of(ProcessRef.of(CHILD), ProcessRef.of(ROOT)));
    var siblingFacts = new ProcessFacts(4500, 3900, 4000, null, List.of(ProcessRef.of(SIBLING), ProcessRef.of(SHELL)));
    var recycledRoot = new ProcessFacts(4242, 3900, 4000, null, List.of(new ProcessRef(4242, 201)));
    assertTrue(Ownership.owns(adopted, childFacts));
    assertFalse(Ownership.owns(adopted, siblingFacts), "same session and group as the run, but not its descendant");
    assertFalse(Ownership.owns(adopted, recycledRoot));
    assertFalse(Ownership.owns(adopted, new ProcessFacts(0, 0, 0, null)), "session 0 is not the job's");
  }
}
