package dev.gq.core.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.launch.LaunchProblem.Cause;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The words of a launch that failed or was deferred, one sentence per cause, as the stored events have always kept them. */
class LaunchProblemTest {
  @Test
  void everyCauseIsWordedAsBefore() {
    Map<Cause, String> said = new EnumMap<>(Cause.class);
    said.put(Cause.COMMAND_UNREADABLE, "cannot read the job's command from the database: no stored job");
    said.put(Cause.LAUNCH_REFUSED, "working directory /gone no longer exists");
    said.put(Cause.DAEMON_STOPPED, "the daemon stopped before the job could start");
    said.put(Cause.RUNNER_FAILED, "cannot start the job: boom");
    said.put(Cause.LEASE_TAKEN, "GPU-1 is held by bob's job 3");
    said.put(Cause.NO_SLURM_PROFILE, "no Slurm profile 'a100' in the configuration file any more");
    said.put(Cause.SBATCH_REFUSED, "sbatch refused it: sbatch: error: invalid partition");
    Map<Cause, String> details = Map.of(Cause.COMMAND_UNREADABLE, "no stored job", Cause.LAUNCH_REFUSED,
        "working directory /gone no longer exists", Cause.RUNNER_FAILED, "boom", Cause.LEASE_TAKEN, "GPU-1 is held by bob's job 3",
        Cause.NO_SLURM_PROFILE, "a100", Cause.SBATCH_REFUSED, "sbatch: error: invalid partition");
    assertEquals(Cause.values().length, said.size(), "every cause has its sentence here");
    said.forEach((cause, text) -> assertEquals(text, new LaunchProblem(cause, details.get(cause)).text(), cause.name()));
  }

  @Test
  void noDetailIsAnEmptyOne() {
    assertEquals("", new LaunchProblem(Cause.DAEMON_STOPPED, null).detail());
  }
}
