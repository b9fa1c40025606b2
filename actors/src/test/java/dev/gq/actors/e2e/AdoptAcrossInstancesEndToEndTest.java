package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq adopt} never reaches another gq's job: with two instances of one user on the same GPUs,
 * the second refuses to adopt the first's job process, its shim, a run on the GPU the first's job
 * leases, and a process left of the first's job without its tag or its shim (it still holds the
 * job's lease open), each in one line saying why, and the first's job runs on untouched.
 */
class AdoptAcrossInstancesEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killOutsiders() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void anotherInstancesJobItsShimAndARunOnTheGpuItLeasesAreRefusedAndItsJobRunsOn() throws Exception {
    try (Gqd b = Gqd.start(tmp.resolve("b"), 2);
        Gqd b2 = Gqd.start(tmp.resolve("b2"), 2, Map.of("GQ_FAKE_NVML", tmp.resolve("b/fake").toString()))) {
      Path pidFile = tmp.resolve("pid");
      long job = b.submit("-g", "1", "bash", "-c", "echo $$ > " + pidFile + ".new; mv " + pidFile + ".new " + pidFile
          + "; exec sleep 300");
      b.awaitState(job, "RUNNING", T);
      Gqd.await("the job to say its pid", T, () -> Files.exists(pidFile));
      long pid = Long.parseLong(Files.readString(pidFile).strip());
      int index = b.job(job).get("gpu_indices").get(0).asInt();
      Files.writeString(b.fake.resolve("procs").resolve(Gqd.uuid(index)).resolve(String.valueOf(pid)), "500\n");
      Gqd.await("the second gq to see GPU " + index + " held", T, () -> "EXTERNAL".equals(b2.gpuState(index)));

      long shim = ProcessHandle.of(pid).flatMap(ProcessHandle::parent).orElseThrow().pid();
      Gqd.Result r = b2.gq("adopt", String.valueOf(pid));
      assertNotEquals(0, r.code(), r.toString());
      assertEquals("gq: process " + pid + " runs under gq job shim " + shim
          + "; gq adopts only runs started by hand, never a job of any gq\n", r.err());
      r = b2.gq("adopt", String.valueOf(shim));
      assertNotEquals(0, r.code(), r.toString());
      assertEquals("gq: process " + shim + " is a gq job's shim; gq adopts only runs started by hand, never a job of any gq\n",
          r.err());

      Process outsider = new ProcessBuilder("sleep", "300").start();
      started.add(outsider);
      Files.writeString(b.fake.resolve("procs").resolve(Gqd.uuid(index)).resolve(String.valueOf(outsider.pid())), "500\n");
      Gqd.await("the second gq to list the run on GPU " + index, T,
          () -> b2.gpus().get(index).get("processes").toString().contains(String.valueOf(outsider.pid())));
      r = b2.gq("adopt", String.valueOf(outsider.pid()));
      assertNotEquals(0, r.code(), r.toString());
      assertTrue(r.err().contains("is held by job " + job + " of the gq in " + b.data), r.err());
      assertEquals(1, r.err().lines().count(), r.err());

      r = b2.gq("ps", "-a");
      assertTrue(r.out().isEmpty() && r.err().startsWith("No jobs."), "the second gq made no job: " + r);
      assertEquals("RUNNING", b.state(job));
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job's process was signalled");
    }
  }

  @Test
  void aProcessLeftOfAnotherInstancesJobWithoutItsTagOrShimIsRefusedByTheLeaseItHolds() throws Exception {
    try (Gqd b = Gqd.start(tmp.resolve("b"), 1);
        Gqd b2 = Gqd.start(tmp.resolve("b2"), 1, Map.of("GQ_FAKE_NVML", tmp.resolve("b/fake").toString()))) {
      Path pidFile = tmp.resolve("pid");
      long job = b.submit("-g", "1", "bash", "-c", "echo $$ > " + pidFile + ".new; mv " + pidFile + ".new " + pidFile
          + "; exec env -u GQ_JOB_TAG sleep 300");
      b.awaitState(job, "RUNNING", T);
      Gqd.await("the job to say its pid", T, () -> Files.exists(pidFile));
      long pid = Long.parseLong(Files.readString(pidFile).strip());
      Gqd.await("the job to drop its tag", T, () -> ProcessHandle.of(pid).flatMap(p -> p.info().command())
          .map(c -> c.endsWith("sleep")).orElse(false));
      ProcessHandle shim = ProcessHandle.of(pid).flatMap(ProcessHandle::parent).orElseThrow();
      shim.destroyForcibly(); // its process runs on, out of the shim's tree, holding the GPU's lease
      Gqd.await("the job's process to leave the shim", T,
          () -> ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(p -> p.pid() != shim.pid()).orElse(false));
      Gqd.Result r = b2.gq("adopt", String.valueOf(pid));
      assertNotEquals(0, r.code(), r.toString());
      assertEquals("gq: process " + pid + " holds the GPU lease " + tmp.resolve("b/fake/leases").toRealPath()
          .resolve(Gqd.uuid(0) + ".lease") + " open: it is a gq job's; gq adopts only runs started by hand, never a job"
          + " of any gq\n", r.err());
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job's process was signalled");
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
