package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramLookupTest {
  @TempDir Path dir;

  private Path program(String name, String perms) throws Exception {
    Path p = Files.createDirectories(dir.resolve("bin")).resolve(name);
    Files.writeString(p, "#!/bin/sh\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    return p;
  }

  @Test
  void aNameIsLookedUpOnTheJobsPathAsExecvpWould() throws Exception {
    program("train", "rwxr-xr-x");
    program("notes", "rw-r--r--");
    String path = "/nonexistent:" + dir.resolve("bin");
    assertNull(ProgramLookup.missing("train", path, "/"));
    assertEquals("no program 'pyhton' on the job's PATH; the job will fail with exit 127 unless it is installed before the job starts",
        ProgramLookup.missing("pyhton", path, "/"));
    assertNotNull(ProgramLookup.missing("notes", path, "/"), "not executable: not found by execvp");
    assertNull(ProgramLookup.missing("train", null, "/"), "no PATH of its own: not judged");
  }

  @Test
  void aPathIsTakenFromTheWorkingDirectory() throws Exception {
    program("run.sh", "rwxr-xr-x");
    program("data.txt", "rw-r--r--");
    assertNull(ProgramLookup.missing("./bin/run.sh", "/usr/bin", dir.toString()));
    assertTrue(ProgramLookup.missing("./bin/nope.sh", "/usr/bin", dir.toString()).startsWith("./bin/nope.sh does not exist"));
    assertTrue(ProgramLookup.missing("bin/data.txt", "", dir.toString()).contains("is not an executable file; the job will fail with exit 126"));
  }

  @Test
  void aTypoInTheCommandIsSaidAtSubmitAndTheJobIsStillQueued() throws Exception {
    Cli cli = new Cli(dir);
    cli.io.env.put("PATH", "/usr/bin:/bin");
    Cli.Result r = cli.run("-g", "0", "pyhton", "train.py");
    assertEquals(0, r.code(), r.toString());
    assertEquals(1, cli.api.submitted.size());
    assertTrue(r.err().contains("gq: warning: no program 'pyhton' on the job's PATH"), r.err());
    Cli.Result fine = cli.run("-g", "0", "sh", "-c", "true");
    assertFalse(fine.err().contains("warning"), fine.err());
  }
}
