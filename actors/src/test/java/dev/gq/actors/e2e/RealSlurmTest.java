package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test Slurm itself: GPUs as GRES, placement, exit codes kept, a controller restarted. */
class RealSlurmTest {
  private static final Duration T = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private RealSlurm slurm;

  @BeforeEach
  void start() throws Exception {
    slurm = RealSlurm.start(tmp.resolve("slurm"), 4);
  }

  @AfterEach
  void stop() throws Exception {
    if (slurm != null) slurm.close();
  }

  private String sbatch(String... args) {
    String[] argv = new String[args.length + 3];
    argv[0] = "sbatch";
    argv[1] = "--parsable";
    argv[2] = "--output=" + tmp.resolve("out.%j");
    System.arraycopy(args, 0, argv, 3, args.length);
    return slurm.run(argv).strip();
  }

  @Test
  void aTwoGpuJobGetsTwoGpusAsGresAndSeesThemNumberedFromZero() throws Exception {
    String id = sbatch("--gres=gpu:2", "--wrap", "echo CVD=$CUDA_VISIBLE_DEVICES; sleep 60");
    slurm.awaitJobState(id, "RUNNING", T);
    assertEquals("gres:gpu:2", slurm.jobField(id, "TresPerNode"));
    assertEquals("gpu:2", slurm.jobField(id, "JOB_GRES"));
    assertTrue(slurm.jobField(id, "GRES").startsWith("gpu:2(IDX:"), slurm.run("scontrol", "-d", "show", "job", id));
    Path out = tmp.resolve("out." + id);
    Gqd.await("the job's output", T, () -> read(out).contains("CVD="));
    assertEquals("CVD=0,1", read(out).strip());
  }

  @Test
  void aThirdTwoGpuJobWaitsForResourcesWhileTwoRun() throws Exception {
    String a = sbatch("--gres=gpu:2", "--wrap", "sleep 60");
    String b = sbatch("--gres=gpu:2", "--wrap", "sleep 60");
    slurm.awaitJobState(a, "RUNNING", T);
    slurm.awaitJobState(b, "RUNNING", T);
    String c = sbatch("--gres=gpu:2", "--wrap", "sleep 60");
    Gqd.await("job " + c + " to wait for Resources", T, () -> "Resources".equals(slurm.jobField(c, "Reason")));
    assertEquals("PENDING", slurm.jobField(c, "JobState"));
    assertNotEquals(slurm.jobField(a, "GRES"), slurm.jobField(b, "GRES"), "the two running jobs share no GPU");
  }

  @Test
  void fourOneGpuJobsRunAtOnce() throws Exception {
    String[] ids = new String[4];
    for (int i = 0; i < ids.length; i++) ids[i] = sbatch("--gres=gpu:1", "--wrap", "sleep 60");
    for (String id : ids) slurm.awaitJobState(id, "RUNNING", T);
  }

  @Test
  void aFinishedJobsExitCodeStaysReadable() throws Exception {
    String id = sbatch("--wrap", "exit 3");
    slurm.awaitJobState(id, "FAILED", T);
    assertEquals("3:0", slurm.jobField(id, "ExitCode"));
    assertTrue(slurm.run("scontrol", "show", "config").matches("(?s).*\\nMinJobAge\\s*=\\s*" + RealSlurm.MIN_JOB_AGE_S + " sec.*"));
    // a poller some seconds behind still reads it
    long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (System.nanoTime() < end) {
      assertEquals("3:0", slurm.jobField(id, "ExitCode"));
      Thread.sleep(250);
    }
  }

  @Test
  void aPendingJobOutlivesAControllerRestart() throws Exception {
    String held = sbatch("--hold", "--wrap", "true");
    assertEquals("PENDING", slurm.jobField(held, "JobState"));
    slurm.stopController();
    RealSlurm.Outcome down = slurm.exec("squeue", "-h");
    assertNotEquals(0, down.code(), "squeue answered without a controller: " + down.out());
    assertTrue(down.err().contains("Unable to contact slurm controller"), down.err());
    slurm.startController();
    assertEquals("PENDING", slurm.jobField(held, "JobState"));
    assertEquals("JobHeldUser", slurm.jobField(held, "Reason"));
    slurm.run("scontrol", "release", held);
    slurm.awaitJobState(held, "COMPLETED", T);
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
