package dev.gq.host.launch;

import static dev.gq.host.TestJobs.await;
import static dev.gq.host.TestJobs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchException;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.host.TestJobs;
import dev.gq.host.libc.Libc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimLauncherTest {

  static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;
  TestJobs jobs;

  @BeforeEach
  void start() {
    jobs = new TestJobs(dir);
  }

  @AfterEach
  void stop() {
    jobs.close();
  }

  private LaunchSpec with(LaunchSpec s, Path cwd, Map<String, String> env) {
    return new LaunchSpec(s.jobId(), s.argv(), cwd, env, s.logFile(), s.exitFile());
  }

  @Test
  void argvIsPassedLiterallyWithoutAShell() throws Exception {
    LaunchSpec spec = jobs.spec("printf", "[%s]\\n", "a b", "it's", "\"dq\"", "$HOME", "*", "");
    assertEquals(ExitRecord.exited(0), jobs.run(spec));
    assertEquals("[a b]\n[it's]\n[\"dq\"]\n[$HOME]\n[*]\n[]\n", read(spec.logFile()));
  }

  @Test
  void environmentIsExactlyTheGivenOne() throws Exception {
    Map<String, String> env = Map.of("PATH", TestJobs.pathOnly().get("PATH"), "FOO", "bar", "EMPTY", "");
    LaunchSpec spec = with(jobs.spec("env"), dir, env);
    jobs.run(spec);
    Set<String> lines = Set.copyOf(read(spec.logFile()).lines().toList());
    assertEquals(Set.of("PATH=" + env.get("PATH"), "FOO=bar", "EMPTY="), lines);
  }

  @Test
  void runsInTheGivenDirectory() throws Exception {
    Path cwd = Files.createDirectory(dir.resolve("work dir"));
    LaunchSpec spec = with(jobs.spec("pwd"), cwd, TestJobs.pathOnly());
    jobs.run(spec);
    assertEquals(cwd.toRealPath() + "\n", read(spec.logFile()));
  }

  @Test
  void stdoutAndStderrInterleaveInOneAppendedLog() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "echo out1; echo err1 >&2; echo out2; echo err2 >&2");
    Files.createDirectories(spec.logFile().getParent());
    Files.writeString(spec.logFile(), "earlier\n");
    jobs.run(spec);
    assertEquals("earlier\nout1\nerr1\nout2\nerr2\n", read(spec.logFile()));
  }

  @Test
  void newLogIsPrivateToTheUser() throws Exception {
    LaunchSpec spec = jobs.spec("true");
    jobs.run(spec);
    assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(spec.logFile()));
  }

  @Test
  void exitCodesAreRecorded() throws Exception {
    assertEquals(ExitRecord.exited(0), jobs.run(jobs.spec("true")));
    assertEquals(ExitRecord.exited(3), jobs.run(jobs.spec("sh", "-c", "exit 3")));
  }

  @Test
  void deathBySignalIsRecorded() throws Exception {
    ExitRecord record = jobs.run(jobs.spec("sh", "-c", "kill -9 $$"));
    assertEquals(ExitRecord.signalled(9), record);
    assertEquals(137, record.exitCode());
  }

  @Test
  void missingCommandFailsTheLaunchAtOnceWithTheShellsStatusAndALogLine() throws Exception {
    LaunchSpec spec = jobs.spec("no-such-command-gq", "x");
    LaunchException e = assertThrows(LaunchException.class, () -> jobs.launch(spec));
    assertEquals("cannot run 'no-such-command-gq': No such file or directory", e.getMessage());
    assertEquals(127, e.exitCode());
    assertEquals("gq: cannot run 'no-such-command-gq': No such file or directory\n", read(spec.logFile()));
    assertFalse(Files.exists(spec.exitFile()), "nothing was started");
  }

  @Test
  void aCommandThatPassesTheLookupButCannotBeExecutedIsAnExecErrorWithALogLine() throws Exception {
    Path script = dir.resolve("bad-interpreter");
    Files.writeString(script, "#!/nonexistent/interpreter\n");
    Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    LaunchSpec spec = jobs.spec(script.toString());
    ExitRecord record = jobs.run(spec);
    assertEquals(ExitRecord.Kind.EXEC_FAILED, record.kind());
    assertEquals("cannot run '" + script + "': No such file or directory", record.text());
    assertEquals("gq: cannot run '" + script + "': No such file or directory\n", read(spec.logFile()));
  }

  @Test
  void missingWorkingDirectoryIsRefused() {
    LaunchSpec spec = with(jobs.spec("true"), dir.resolve("gone"), TestJobs.pathOnly());
    LaunchException e = assertThrows(LaunchException.class, () -> jobs.launch(spec));
    assertEquals("working directory " + dir.resolve("gone") + " no longer exists", e.getMessage());
  }

  @Test
  void missingShimIsALaunchException() {
    ShimLauncher broken = new ShimLauncher(dir.resolve("no-shim"), jobs.proc);
    LaunchException e = assertThrows(LaunchException.class, () -> broken.launch(jobs.spec("true")));
    assertTrue(e.getMessage().startsWith("cannot start job "), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void shimLeadsItsOwnSessionAndIdentityIsRecorded() throws Exception {
    LaunchSpec spec = jobs.spec("sleep", "30");
    Files.createDirectories(spec.exitFile().getParent());
    Files.writeString(spec.exitFile(), "exit 99\n");
    ProcessIdentity id = jobs.launch(spec).identity();
    ProcInfo shim = jobs.proc.info(id.pid()).orElseThrow();
    assertEquals(List.of(id.pid(), id.pid(), id.pid()), List.of(shim.pid(), shim.pgid(), shim.sid()));
    assertEquals(List.of(id.pid(), id.pid()), List.of(id.pgid(), id.sid()));
    assertEquals(shim.startTicks(), id.startTicks());
    assertEquals(jobs.proc.bootId(), id.bootId());
    assertTrue(id.pid() != ProcessHandle.current().pid());
    assertFalse(Files.exists(spec.exitFile()), "a stale exit file is removed before the launch");
  }

  @Test
  void shimOutlivesSigtermToTheGroupAndRecordsIt() throws Exception {
    LaunchSpec spec = jobs.spec("sleep", "30");
    LaunchedProcess job = jobs.launch(spec);
    long pgid = job.identity().pgid();
    await("sleep runs", WAIT, () -> jobs.groupRuns(pgid, "sleep"));
    Libc.kill(-pgid, 15);
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(ExitRecord.signalled(15), ExitFiles.read(spec.exitFile()).orElseThrow().withPid(null));
  }

  @Test
  void sigtermAtTheVeryStartStillReachesTheJobAndIsRecorded() throws Exception {
    // a cancel right after the launch: the signal may come before the shim has its handlers or
    // has forked the job; either way the job must get it and the shim must record it
    for (int i = 0; i < 10; i++) {
      LaunchSpec spec = jobs.spec("sleep", "30");
      LaunchedProcess job = jobs.launch(spec);
      Libc.kill(-job.identity().pgid(), 15);
      job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertEquals(ExitRecord.signalled(15), ExitFiles.read(spec.exitFile()).orElseThrow().withPid(null), "attempt " + i);
    }
  }

  @Test
  void backgroundChildThatLeavesTheSessionSurvives() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "setsid sleep 30 >/dev/null 2>&1 & echo $!");
    LaunchedProcess job = jobs.launch(spec);
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    long detached = Long.parseLong(read(spec.logFile()).strip());
    try {
      assertEquals(ExitRecord.exited(0), ExitFiles.read(spec.exitFile()).orElseThrow().withPid(null));
      await("the child leads its own session", WAIT,
          () -> jobs.proc.info(detached).map(p -> p.sid() == detached).orElse(false));
      assertTrue(TestJobs.alive(detached));
      ProcessIdentity id = job.identity();
      assertEquals(List.of(), jobs.proc.members(id.pgid(), id.sid()));
      assertFalse(ExitFiles.leftNothing(spec.exitFile()), "a process the job started still runs");
    } finally {
      TestJobs.killQuietly(detached);
    }
  }

  @Test
  void shimIsSpawnedDirectlyWhereTheCLibraryAllows() {
    // glibc 2.29+ (every supported distribution); the ProcessBuilder path is the fallback.
    assertTrue(PosixSpawn.AVAILABLE);
  }

  @Test
  void jobSeesOnlyStdinStdoutAndStderrOfTheDaemonsDescriptors() throws Exception {
    Path held = Files.writeString(dir.resolve("held"), "x");
    try (var open = Files.newInputStream(held); var alsoOpen = new java.io.FileInputStream(held.toFile())) {
      LaunchSpec spec = jobs.spec("sh", "-c", "ls /proc/$$/fd");
      assertEquals(ExitRecord.exited(0), jobs.run(spec));
      assertEquals("0\n1\n2\n", read(spec.logFile()));
    }
  }

  @Test
  void jobStartsWithNoSignalIgnoredOrBlockedAndNothingInItsLog() throws Exception {
    LaunchSpec spec = jobs.spec("grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status");
    assertEquals(ExitRecord.exited(0), jobs.run(spec));
    List<Long> masks = read(spec.logFile()).lines().map(l -> Long.parseUnsignedLong(l.substring(8), 16)).toList();
    assertEquals(0L, masks.get(0), "blocked");
    // Signals 32 and 33 are the C library's own, which no program can set (the JVM's children
    // inherit them ignored either way); every signal a job can use starts at its default.
    assertEquals(0L, masks.get(1) & ~0x180000000L, "ignored");
  }

  @Test
  void shimIsReapedOnceItExits() throws Exception {
    LaunchedProcess job = jobs.launch(jobs.spec("true"));
    assertTrue(job.identity().startTicks() > 0, "read before the shim could be reaped");
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    await("no zombie is left", WAIT, () -> jobs.proc.info(job.identity().pid()).isEmpty());
  }

  @Test
  void throughProcessBuilderWhereSpawnIsMissingTheShimStillLeadsItsSessionAndRecordsTheExit() throws Exception {
    ShimLauncher fallback = new ShimLauncher(TestJobs.SHIM, jobs.proc, false);
    LaunchSpec spec = jobs.spec("sh", "-c", "echo out; echo err >&2; ls /proc/$$/fd; exit 3");
    LaunchedProcess job = fallback.launch(spec);
    ProcessIdentity id = job.identity();
    assertEquals(List.of(id.pid(), id.pid()), List.of(id.pgid(), id.sid()));
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(ExitRecord.exited(3).withPid(id.pid()), ExitFiles.read(spec.exitFile()).orElseThrow());
    assertEquals("out\nerr\n0\n1\n2\n", read(spec.logFile()));
  }

  @Test
  void theRecordNamesTheShimsPidOnALineOfItsOwn() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "exit 5");
    LaunchedProcess job = jobs.launch(spec);
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertTrue(read(spec.exitFile()).matches("exit 5\npid " + job.identity().pid() + "\nalone\nended \\d+\\.\\d{9}\n"),
        read(spec.exitFile()));
  }

  @Test
  void aJobThatLeftNothingBehindSaysSoInItsRecord() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "exit 4");
    assertEquals(ExitRecord.exited(4), jobs.run(spec));
    assertTrue(ExitFiles.leftNothing(spec.exitFile()));
  }

  @Test
  void anOrphanThatEndedBeforeTheJobIsReapedAndLeavesNothingBehind() throws Exception {
    // The subshell ends at once; its sleep is re-parented to the shim, which reaps it when it ends.
    LaunchSpec spec = jobs.spec("sh", "-c", "(sleep 0.2 &); sleep 1");
    assertEquals(ExitRecord.exited(0), jobs.run(spec));
    assertTrue(ExitFiles.leftNothing(spec.exitFile()));
  }

  @Test
  void aBackgroundProcessStillRunningIsNotNothing() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!");
    LaunchedProcess job = jobs.launch(spec);
    job.shimExited().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    long left = Long.parseLong(read(spec.logFile()).strip());
    try {
      assertEquals(ExitRecord.exited(0), ExitFiles.read(spec.exitFile()).orElseThrow().withPid(null));
      assertFalse(ExitFiles.leftNothing(spec.exitFile()));
      assertTrue(TestJobs.alive(left));
    } finally {
      TestJobs.killQuietly(left);
    }
  }

  @Test
  void aLinkPlantedAsTheLogIsNeverWrittenThrough() throws Exception {
    for (boolean direct : new boolean[] {true, false}) {
      Path victim = Files.writeString(dir.resolve("victim-" + direct), "precious\n");
      LaunchSpec spec = jobs.spec("echo", "leaked");
      Files.createDirectories(spec.logFile().getParent());
      Files.createSymbolicLink(spec.logFile(), victim);
      ShimLauncher launcher = new ShimLauncher(TestJobs.SHIM, jobs.proc, direct);
      LaunchException e = assertThrows(LaunchException.class, () -> launcher.launch(spec));
      assertTrue(e.getMessage().contains(spec.logFile() + ": not a plain file"), e.getMessage());
      assertEquals("precious\n", read(victim), "direct=" + direct);
    }
  }

  @Test
  void theShimRemovesALinkPlantedUnderItsTempNameInsteadOfWritingThroughIt() throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
    Path exit = Files.createDirectories(dir.resolve("run")).resolve("9.exit");
    Process shim = new ProcessBuilder(TestJobs.SHIM.toString(), exit.toString(), "sleep", "1")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
    Files.createSymbolicLink(dir.resolve("run/9.exit." + shim.pid() + ".tmp"), victim);
    assertTrue(shim.waitFor(20, TimeUnit.SECONDS));
    assertEquals("precious\n", read(victim));
    assertEquals(Optional.of(ExitRecord.exited(0).withPid(shim.pid())), ExitFiles.read(exit));
  }
}
