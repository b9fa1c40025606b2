package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubmitCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private Path script(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
    return p;
  }

  private JobSpec onlySubmitted() {
    assertEquals(1, cli.api.submitted.size(), "one submit expected");
    return cli.api.submitted.get(0);
  }

  @Test
  void runsTheScriptWithBashFromTheCallersDirectory() throws Exception {
    Path s = script("jobs/train.sh", "#!/bin/bash\npython train.py\n");
    Cli.Result r = cli.run("submit", "jobs/train.sh");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted job 1\n", r.out());
    JobSpec spec = onlySubmitted();
    assertEquals(List.of("/bin/bash", s.toRealPath().toString()), spec.argv());
    assertEquals(dir.toRealPath().toString(), spec.cwd());
    assertEquals(1, spec.gpus());
    assertEquals("train.sh", spec.name());
  }

  @Test
  void parsablePrintsOnlyTheJobId() throws Exception {
    script("train.sh", "python train.py\n");
    Cli.Result r = cli.run("submit", "-q", "train.sh");
    assertEquals(0, r.code(), r.err());
    assertEquals("1\n", r.out());
  }

  @Test
  void directivesSetTheDefaults() throws Exception {
    script("t.sh", "#gq --gpus=0\n#gq --name=cpu-job\n#gq --group=g1\n#gq --key=k1\n");
    cli.run("submit", "t.sh");
    JobSpec spec = onlySubmitted();
    assertEquals(0, spec.gpus());
    assertEquals("cpu-job", spec.name());
    assertEquals("g1", spec.group());
    assertEquals("k1", spec.key());
  }

  @Test
  void optionsWinOverDirectivesAndDirectivesOverGqGroup() throws Exception {
    script("t.sh", "#gq --gpus=2\n#gq --name=dn\n#gq --group=dg\n");
    cli.io.env.put("GQ_GROUP", "envgroup");
    cli.run("submit", "-g", "3", "--name", "cn", "t.sh");
    cli.run("submit", "--group", "cg", "t.sh");
    assertEquals(3, cli.api.submitted.get(0).gpus());
    assertEquals("cn", cli.api.submitted.get(0).name());
    assertEquals("dg", cli.api.submitted.get(0).group());
    assertEquals("cg", cli.api.submitted.get(1).group());
  }

  @Test
  void gqGroupAppliesWithoutOptionOrDirective() throws Exception {
    script("t.sh", "echo\n");
    cli.io.env.put("GQ_GROUP", "envgroup");
    cli.run("submit", "t.sh");
    assertEquals("envgroup", onlySubmitted().group());
  }

  @Test
  void tildeExpandsFromHome() throws Exception {
    Path home = Files.createDirectory(dir.resolve("home"));
    cli.io.env.put("HOME", home.toString());
    Path s = script("home/x.sh", "echo\n");
    assertEquals(0, cli.run("submit", "~/x.sh").code());
    assertEquals(s.toRealPath().toString(), onlySubmitted().argv().get(1));
  }

  @Test
  void missingScriptIsRefused() {
    Cli.Result r = cli.run("submit", "nope.sh");
    assertEquals(1, r.code());
    assertEquals("gq: script does not exist or is not a regular file: " + dir.resolve("nope.sh") + "\n", r.err());
  }

  @Test
  void directoryIsNotAScript() throws Exception {
    Files.createDirectory(dir.resolve("d"));
    Cli.Result r = cli.run("submit", "d");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: script does not exist or is not a regular file: "), r.err());
  }

  @Test
  void malformedDirectiveIsRefusedNamingTheLine() throws Exception {
    script("t.sh", "#!/bin/bash\n#gq gpus 2\n");
    Cli.Result r = cli.run("submit", "t.sh");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: unsupported or malformed #gq directive on line 2: '#gq gpus 2'"), r.err());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void negativeGpuOptionIsAUsageError() throws Exception {
    script("t.sh", "echo\n");
    Cli.Result r = cli.run("submit", "-g", "-2", "t.sh");
    assertEquals(2, r.code());
    assertEquals("gq: -g/--gpus must be 0 or more, not -2\nTry 'gq submit --help'.\n", r.err());
  }

  @Test
  void scriptIsRequired() {
    Cli.Result r = cli.run("submit");
    assertEquals(2, r.code());
    assertEquals("gq: a script is required, as in 'gq submit train.sh' (or --batch FILE)\nTry 'gq submit --help'.\n", r.err());
  }

  @Test
  void secretsAreFilteredForScriptsToo() throws Exception {
    script("t.sh", "echo\n");
    cli.io.env.put("WANDB_API_KEY", "x");
    Cli.Result r = cli.run("submit", "--json", "t.sh");
    assertTrue(r.err().startsWith("gq: not storing WANDB_API_KEY (secret);"), r.err());
    assertTrue(r.out().startsWith("{\n  \"id\": 1,\n  \"skipped\": false,\n  \"state\": \"WAITING\",\n"), r.out());
    assertNull(onlySubmitted().env().get("WANDB_API_KEY"));
  }

  @Test
  void submittingIntoAHeldQueueSaysSoOnStderrAndStillSubmits() throws Exception {
    script("t.sh", "echo hi\n");
    cli.api.queue = new GqApi.QueueState(true, java.util.Map.of());
    Cli.Result r = cli.run("submit", "t.sh");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted job 1\n", r.out());
    assertEquals("gq: the queue is held, so job 1 waits until 'gq release --all'\n", r.err());
    onlySubmitted();
  }

  @Test
  void submittingIntoAHeldGroupNamesTheHoldAndHowToRelease() throws Exception {
    script("t.sh", "#gq --group=sweep\n");
    cli.api.queue = new GqApi.QueueState(false, java.util.Map.of("sweep", "held by the user", "other", "held by the user"));
    Cli.Result r = cli.run("submit", "--json", "t.sh");
    assertEquals(0, r.code(), r.err());
    assertEquals("gq: group sweep is held (held by the user), so job 1 waits until 'gq release --group sweep'\n", r.err());
    assertTrue(r.out().contains("\"id\": 1,"), r.out());
  }

  @Test
  void noNoteWhenNothingHoldsTheNewJobOrTheSubmitWasSkipped() throws Exception {
    script("t.sh", "#gq --group=free\n");
    cli.api.queue = new GqApi.QueueState(false, java.util.Map.of("other", "held by the user"));
    assertEquals("", cli.run("submit", "t.sh").err());
    cli.api.queue = new GqApi.QueueState(true, java.util.Map.of());
    cli.api.nextSubmit = new GqApi.SubmitResult(1, true, dev.gq.core.job.JobState.WAITING, null);
    Cli.Result skipped = cli.run("submit", "--key", "k", "t.sh");
    assertEquals("", skipped.err());
  }

  @Test
  void runIntoAHeldQueueSaysSoToo() {
    cli.api.queue = new GqApi.QueueState(true, java.util.Map.of());
    Cli.Result r = cli.run("run", "-g", "0", "--", "echo", "hi");
    assertEquals(0, r.code(), r.err());
    assertEquals("gq: the queue is held, so job 1 waits until 'gq release --all'\n", r.err());
  }

  @Test
  void theHeldNoteComesFromTheSubmitsOwnAnswerWithoutAskingTheQueueAgain() throws Exception {
    script("t.sh", "echo hi\n");
    cli.api.queue = new GqApi.QueueState(true, java.util.Map.of());
    cli.api.queueRefusal = new ApiException("asked a second time");
    Cli.Result r = cli.run("submit", "t.sh");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted job 1\n", r.out());
    assertEquals("gq: the queue is held, so job 1 waits until 'gq release --all'\n", r.err());
  }

  @Test
  void aCapIsSetWithTheSubmitAndSaidOnlyWhenItChanges() {
    cli.api.queueRefusal = new ApiException("asked a second time");
    Cli.Result first = cli.run("run", "-g", "0", "--group", "sweep", "--max-running", "2", "--", "echo", "hi");
    assertEquals(0, first.code(), first.err());
    assertEquals("gq: Group sweep: at most 2 of its jobs at once.\n", first.err());
    Cli.Result again = cli.run("run", "-g", "0", "--group", "sweep", "--max-running", "2", "--", "echo", "hi");
    assertEquals("", again.err());
    assertEquals(2, cli.api.caps.get("sweep"));
  }

  @Test
  void aCommandGivenToSubmitPointsToRun() {
    cli.io.env.put("PATH", "/usr/bin:/bin");
    Cli.Result r = cli.run("submit", "-g", "1", "--", "bash", "-c", "echo hi");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("gq submit queues a script: to queue a command, use 'gq run CMD...'"), r.err());
    Cli.Result words = cli.run("submit", "sh", "train.py");
    assertEquals(2, words.code());
    assertTrue(words.err().startsWith("gq: there is no script 'sh' here and sh is a command; gq submit queues a script"), words.err());
    assertTrue(cli.api.submitted.isEmpty(), "nothing queued");
  }

  @Test
  void wordsAfterTheScriptAreItsArgumentsAsWithSbatch() throws Exception {
    Path t = script("t.sh", "#!/bin/bash\necho \"$@\"\n");
    Cli.Result r = cli.run("submit", "-g", "0", "t.sh", "--lr", "3e-4", "a b");
    assertEquals(0, r.code(), r.toString());
    assertEquals(List.of("/bin/bash", t.toRealPath().toString(), "--lr", "3e-4", "a b"), cli.api.submitted.get(0).argv());
    assertEquals("", r.err());
  }

  @Test
  void anOptionOfGqsAfterTheScriptGoesToTheScriptAndIsSaidOnce() throws Exception {
    Path t = script("t.sh", "#!/bin/bash\n");
    Cli.Result r = cli.run("submit", "t.sh", "--name", "x", "--json");
    assertEquals(0, r.code(), r.toString());
    assertEquals(List.of("/bin/bash", t.toRealPath().toString(), "--name", "x", "--json"), cli.api.submitted.get(0).argv());
    assertEquals("gq: note: --name after the script is passed to the script, as with sbatch; put gq's options before SCRIPT\n",
        r.err());
  }

  @Test
  void aPythonFileSubmittedAsAScriptGetsAWarningNamingHowToRunIt() throws Exception {
    script("train.py", "import torch\n");
    Cli.Result r = cli.run("submit", "train.py");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.err().contains("gq: warning: train.py is a Python file and gq submit runs scripts with bash;"
        + " to run it with Python: gq -g 1 python train.py"), r.err());
    script("job", "#!/usr/bin/env python3\nprint(1)\n");
    assertTrue(cli.run("submit", "job").err().contains("is a Python file"));
    script("ok.sh", "#!/bin/bash\necho python\n");
    assertFalse(cli.run("submit", "ok.sh").err().contains("warning"));
  }
}
