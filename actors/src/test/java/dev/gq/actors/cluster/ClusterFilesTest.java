package dev.gq.actors.cluster;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The #SBATCH lines of a job's script, whether it is the program or what bash runs; the files' modes. */
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

  @Test
  void theClusterDirectoriesAndScriptsAreTheUsersAloneWhateverTheUmask() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    ClusterFiles files = new ClusterFiles(data);
    List<dev.gq.core.cluster.ClusterCell> cells = List.of(ClusterFiles.cell(job("true")), ClusterFiles.cell(job("false")));
    var at = files.places(cells);
    var s = new dev.gq.core.cluster.SbatchScript.Submission(List.of(), "#!/bin/bash\n", Map.of(1L, "export SECRET=x\n"),
        Map.of(0, dir.resolve("1.log").toString()));
    Path batch = files.write(cells, s, at);
    for (Path d : List.of(data.resolve("cluster"), data.resolve("cluster/jobs"), data.resolve("cluster/batch"),
        data.resolve("cluster/arrays"), at.arrayDir()))
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)), d.toString());
    for (Path f : List.of(batch, at.script(1)))
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
    assertEquals("export SECRET=x\n", Files.readString(at.script(1)));
  }
}
