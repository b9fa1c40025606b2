package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a removed job's files never reaches outside gq's own log and exit directories. */
class JobFilesTest {
  @TempDir Path dir;

  @Test
  void deletesTheJobsOwnLogAndExitRecord() throws Exception {
    Path logs = Files.createDirectories(dir.resolve("data/logs"));
    Path run = Files.createDirectories(dir.resolve("data/run"));
    Path log = Files.writeString(logs.resolve("7.log"), "out");
    Path exit = Files.writeString(run.resolve("7.exit"), "exit 0\n");
    new JobFiles(logs, run).delete(7, log.toString());
    assertFalse(Files.exists(log));
    assertFalse(Files.exists(exit));
  }

  @Test
  void aLogDirectoryReplacedByALinkLeadsNowhere() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("elsewhere"));
    Path victim = Files.writeString(outside.resolve("7.log"), "not gq's");
    Path victimExit = Files.writeString(outside.resolve("7.exit"), "not gq's");
    Path data = Files.createDirectories(dir.resolve("data"));
    Path logs = Files.createSymbolicLink(data.resolve("logs"), outside);
    Path run = Files.createSymbolicLink(data.resolve("run"), outside);
    new JobFiles(logs, run).delete(7, logs.resolve("7.log").toString());
    assertTrue(Files.exists(victim), "a file outside the data directory was deleted through logs/");
    assertTrue(Files.exists(victimExit), "a file outside the data directory was deleted through run/");
  }

  @Test
  void aLinkInPlaceOfTheLogIsKept() throws Exception {
    Path victim = Files.writeString(dir.resolve("precious"), "x");
    Path logs = Files.createDirectories(dir.resolve("data/logs"));
    Path run = Files.createDirectories(dir.resolve("data/run"));
    Path link = Files.createSymbolicLink(logs.resolve("7.log"), victim);
    new JobFiles(logs, run).delete(7, link.toString());
    assertTrue(Files.exists(victim));
  }
}
