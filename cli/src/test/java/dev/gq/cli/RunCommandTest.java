package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private JobSpec onlySubmitted() {
    assertEquals(1, cli.api.submitted.size(), "one submit expected");
    return cli.api.submitted.get(0);
  }

  @Test
  void shortcutKeepsOptionsAfterTheCommandInTheCommand() {
    Cli.Result r = cli.run("-g", "1", "python", "-u", "x.py", "--lr", "3");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted job 1\n", r.out());
    JobSpec spec = onlySubmitted();
    assertEquals(List.of("python", "-u", "x.py", "--lr", "3"), spec.argv());
    assertEquals(1, spec.gpus());
  }

  @Test
  void shortcutAcceptsEveryGpuSpelling() {
    assertEquals(0, cli.run("-g2", "a").code());
    assertEquals(0, cli.run("--gpus", "3", "b").code());
    assertEquals(0, cli.run("--gpus=4", "c").code());
    assertEquals(0, cli.run("-g=0", "d").code());
    List<Integer> gpus = cli.api.submitted.stream().map(JobSpec::gpus).toList();
    assertEquals(List.of(2, 3, 4, 0), gpus);
  }

  @Test
  void gqOptionsAfterTheCommandBelongToTheCommand() {
    cli.run("-g", "1", "train", "--name", "n", "-g", "2", "--help", "--verbose");
    JobSpec spec = onlySubmitted();
    assertEquals(List.of("train", "--name", "n", "-g", "2", "--help", "--verbose"), spec.argv());
    assertNull(spec.name());
  }

  @Test
  void leadingDoubleDashIsDroppedOnce() {
    cli.run("run", "--", "--", "x");
    assertEquals(List.of("--", "x"), onlySubmitted().argv());
  }

  @Test
  void doubleDashInsideTheCommandIsKept() {
    cli.run("-g", "1", "python", "--", "-x");
    assertEquals(List.of("python", "--", "-x"), onlySubmitted().argv());
  }

  @Test
  void atSignArgumentsAreNotExpandedFromFiles() throws Exception {
    Files.writeString(dir.resolve("args"), "secret");
    cli.run("-g", "1", "echo", "@" + dir.resolve("args"));
    assertEquals(List.of("echo", "@" + dir.resolve("args")), onlySubmitted().argv());
  }

  @Test
  void runDefaultsToOneGpuAndZeroMeansNoGpu() {
    cli.run("run", "python", "a.py");
    cli.run("run", "-g", "0", "make");
    assertEquals(1, cli.api.submitted.get(0).gpus());
    assertEquals(0, cli.api.submitted.get(1).gpus());
  }

  @Test
  void labelsAndWorkingDirectoryAreSent() throws Exception {
    cli.run("run", "-g", "2", "--name", "sweep-a", "--group", "sweep", "--key", "lr=3", "python", "t.py");
    JobSpec spec = onlySubmitted();
    assertEquals("sweep-a", spec.name());
    assertEquals("sweep", spec.group());
    assertEquals("lr=3", spec.key());
    assertEquals(dir.toRealPath().toString(), spec.cwd());
  }

  @Test
  void groupDefaultsToGqGroupAndEmptyMeansUnset() {
    cli.io.env.put("GQ_GROUP", "nightly");
    cli.run("-g", "1", "a");
    cli.run("-g", "1", "--group", "explicit", "b");
    cli.io.env.put("GQ_GROUP", "");
    cli.run("-g", "1", "c");
    assertEquals("nightly", cli.api.submitted.get(0).group());
    assertEquals("explicit", cli.api.submitted.get(1).group());
    assertNull(cli.api.submitted.get(2).group());
  }

  @Test
  void badGqGroupIsRefusedNamingTheVariable() {
    cli.io.env.put("GQ_GROUP", "a\tb");
    Cli.Result r = cli.run("-g", "1", "a");
    assertEquals(1, r.code());
    assertEquals("gq: GQ_GROUP must not contain control characters (U+0009 at character 2); fix or unset it, or pass --group\n", r.err());
  }

  @Test
  void emptyCommandIsAUsageError() {
    Cli.Result r = cli.run("-g", "1");
    assertEquals(2, r.code());
    assertEquals("gq: a command is required after gq's own options, as in 'gq -g 1 python train.py'\n"
        + "Try 'gq run --help'.\n", r.err());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void doubleDashAloneIsAnEmptyCommand() {
    assertEquals(2, cli.run("run", "--").code());
  }

  @Test
  void emptyProgramNameIsAUsageError() {
    Cli.Result r = cli.run("-g", "1", "", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: the command name must not be empty\n"), r.err());
  }

  @Test
  void nulByteIsAUsageErrorNamingTheArgument() {
    Cli.Result r = cli.run("-g", "1", "echo", "a\0b");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: argument 2 of the command contains a NUL byte\n"), r.err());
  }

  @Test
  void negativeGpusIsAUsageError() {
    Cli.Result r = cli.run("-g", "-1", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: -g/--gpus must be 0 or more, not -1\n"), r.err());
  }

  @Test
  void nonNumericGpusIsAUsageError() {
    Cli.Result r = cli.run("-g", "two", "x");
    assertEquals(2, r.code());
    assertEquals("gq: --gpus takes a whole number, not 'two'", r.err().lines().findFirst().orElse(""));
    assertTrue(r.err().endsWith("Try 'gq run --help'.\n"), r.err());
  }

  @Test
  void badLabelsAreUsageErrors() {
    assertTrue(cli.run("run", "--group", " ", "x").err().startsWith("gq: --group must not be blank\n"));
    assertTrue(cli.run("run", "--key", "k".repeat(201), "x").err()
        .startsWith("gq: --key must be at most 200 characters (it has 201)\n"));
    Cli.Result r = cli.run("run", "--name", "a\u007fb", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: --name must not contain control characters (U+007F at character 2)\n"));
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void c1ControlsLineSeparatorsAndBidiOverridesInLabelsAreUsageErrors() {
    Cli.Result r = cli.run("run", "--name", "a\u0085b", "x");
    assertEquals(2, r.code());
    assertEquals("gq: --name must not contain control characters (U+0085 at character 2)\n", r.err().lines().findFirst().get() + "\n");
    r = cli.run("run", "--group", "g\u2028", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: --group must not contain line or paragraph separators (U+2028 at character 2)\n"), r.err());
    r = cli.run("run", "--key", "exe.\u202etxt", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: --key must not contain bidirectional formatting characters (U+202E at character 5)\n"), r.err());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void vanishedWorkingDirectoryIsRefused() throws Exception {
    Path gone = dir.resolve("gone");
    Files.createDirectory(gone);
    cli.io.cwd = gone;
    Files.delete(gone);
    Cli.Result r = cli.run("-g", "1", "x");
    assertEquals(1, r.code());
    assertEquals("gq: the working directory " + gone + " no longer exists; cd somewhere that exists and submit again\n", r.err());
  }

  @Test
  void unknownOptionBeforeTheCommandIsAUsageError() {
    Cli.Result r = cli.run("run", "--gpu", "1", "x");
    assertEquals(2, r.code());
    assertEquals("gq: unknown option '--gpu'; did you mean '--gpus'?\nTry 'gq run --help'.\n", r.err());
  }

  @Test
  void secretsAreDroppedAndReported() {
    cli.io.env.put("HF_TOKEN", "hf_x");
    cli.io.env.put("AWS_SECRET_ACCESS_KEY", "s");
    cli.io.env.put("AWS_PROFILE", "p");
    cli.io.env.put("AWS_CA_BUNDLE", "/etc/ca.pem");
    cli.io.env.put("TOKENIZERS_PARALLELISM", "false");
    cli.io.env.put("GQ_CLIENT_PID", "1");
    Cli.Result r = cli.run("-g", "1", "true");
    assertEquals("gq: not storing AWS_SECRET_ACCESS_KEY, HF_TOKEN (secrets); keep with --env-keep NAME"
        + " or --env-all (said once for these names)\n", r.err());
    JobSpec spec = onlySubmitted();
    assertEquals("p", spec.env().get("AWS_PROFILE"));
    assertEquals("/etc/ca.pem", spec.env().get("AWS_CA_BUNDLE"));
    assertEquals("false", spec.env().get("TOKENIZERS_PARALLELISM"));
    assertFalse(spec.env().containsKey("HF_TOKEN"));
    assertFalse(spec.env().containsKey("GQ_CLIENT_PID"));
    assertEquals("/usr/bin:/bin", spec.env().get("PATH"));
  }

  @Test
  void theNoteOnDroppedSecretsIsSaidOnceForTheSameNames() {
    cli.io.env.put("HF_TOKEN", "hf_x");
    assertTrue(cli.run("-g", "1", "true").err().contains("not storing HF_TOKEN"));
    assertEquals("", cli.run("-g", "1", "sh").err(), "the same names again: no note");
    cli.io.env.put("DB_PASSWORD", "pw");
    assertTrue(cli.run("-g", "1", "ls").err().contains("not storing DB_PASSWORD, HF_TOKEN"));
    assertEquals(3, cli.api.submitted.size());
    assertFalse(cli.api.submitted.get(1).env().containsKey("HF_TOKEN"), "still dropped, only not said");
  }

  @Test
  void envKeepAndEnvAllKeepSecrets() {
    cli.io.env.put("HF_TOKEN", "hf_x");
    cli.io.env.put("DB_PASSWORD", "pw");
    Cli.Result r = cli.run("-g", "1", "--env-keep", "HF_TOKEN", "true");
    assertEquals("gq: not storing DB_PASSWORD (secret); keep with --env-keep NAME or --env-all"
        + " (said once for these names)\n", r.err());
    assertEquals("hf_x", cli.api.submitted.get(0).env().get("HF_TOKEN"));
    assertEquals("", cli.run("-g", "1", "--env-all", "true").err());
    assertEquals("pw", cli.api.submitted.get(1).env().get("DB_PASSWORD"));
    cli.io.env.put("GQ_ENV_ALL", "1");
    assertEquals("", cli.run("-g", "1", "true").err());
  }

  @Test
  void skippedKeyPrintsTheHolderAndExitsZero() {
    cli.api.nextSubmit = new GqApi.SubmitResult(7, true, JobState.RUNNING, null);
    cli.io.env.put("HF_TOKEN", "x");
    Cli.Result r = cli.run("-g", "1", "--key", "k1", "x");
    assertEquals(0, r.code());
    assertEquals("Skipped: key 'k1' is already RUNNING as job 7\n", r.out());
    assertEquals("", r.err(), "nothing stored, so no env notice");
  }

  @Test
  void parsablePrintsOnlyTheJobId() {
    Cli.Result r = cli.run("-g", "1", "-q", "x");
    assertEquals(0, r.code(), r.err());
    assertEquals("1\n", r.out());
    assertEquals("2\n", cli.run("run", "--parsable", "x").out());
    cli.api.nextSubmit = new GqApi.SubmitResult(7, true, JobState.RUNNING, null);
    Cli.Result skipped = cli.run("-g", "1", "-q", "--key", "k1", "x");
    assertEquals("7\n", skipped.out(), "the key holder's id");
    assertEquals(0, skipped.code());
  }

  @Test
  void parsableAndJsonTogetherAreAUsageError() {
    Cli.Result r = cli.run("-g", "1", "-q", "--json", "x");
    assertEquals(2, r.code());
    assertEquals("gq: give --json or -q/--parsable, not both\nTry 'gq run --help'.\n", r.err());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void jsonPrintsTheSubmitResult() {
    cli.api.nextSubmit = new GqApi.SubmitResult(7, true, JobState.DONE, "Skipped: key 'k' is already DONE as job 7");
    Cli.Result r = cli.run("-g", "1", "--key", "k", "--json", "x");
    assertEquals("{\n  \"id\": 7,\n  \"skipped\": true,\n  \"state\": \"DONE\",\n"
        + "  \"message\": \"Skipped: key 'k' is already DONE as job 7\"\n}\n", r.out());
  }

  @Test
  void refusalByTheDaemonIsOneLineAndExitOne() {
    cli.api.refuseWith = new ApiException("requested 9 GPUs, but this machine has 2");
    Cli.Result r = cli.run("-g", "9", "x");
    assertEquals(1, r.code());
    assertEquals("gq: requested 9 GPUs, but this machine has 2\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void priorityIsPassedOnAndOneOutOfRangeIsAUsageError() {
    assertEquals(0, cli.run("run", "--priority", "12", "true").code());
    assertEquals(12, cli.api.submitted.get(cli.api.submitted.size() - 1).priority());
    Cli.Result bad = cli.run("run", "--priority", "300", "true");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("--priority must be between -100 and 100, not 300"), bad.err());
  }
}
