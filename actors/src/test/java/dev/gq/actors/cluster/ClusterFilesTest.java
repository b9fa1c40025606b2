package dev.gq.actors.cluster;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The #SBATCH lines of a job's script, whether it is the program or what bash runs. */
class ClusterFilesTest {
  @TempDir Path dir;

  private Job job(String... argv) {
    JobSpec s = new JobSpec(List.of(argv), dir.toString(), Map.of(), 1, null, null, null).withCluster("default");
    return new Job(1, s, JobState.WAITING, null, null, null, List.of(), null, null, "/l", null, "t", null);
  }

  @Test
  void theLinesOfTheScriptBashRunsAndOfAProgramThatIsAScript() throws Exception {
    Files.writeString(dir.resolve("train.sh"), "#!/bin/bash\n#SBATCH --mem=64G\n#SBATCH -c 8\npython train.py\n");
    List<String> want = List.of("#SBATCH --mem=64G", "#SBATCH -c 8");
    assertEquals(want, ClusterFiles.sbatchLines(job("/bin/bash", dir.resolve("train.sh").toString())), "gq submit's job");
    assertEquals(want, ClusterFiles.sbatchLines(job("./train.sh")), "the script as the program");
    assertEquals(List.of(), ClusterFiles.sbatchLines(job("/bin/bash", "-c", "echo hi")));
    assertEquals(List.of(), ClusterFiles.sbatchLines(job("python", "x.py")));
  }
}
