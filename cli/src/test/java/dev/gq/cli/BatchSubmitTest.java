package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.BatchLine;
import dev.gq.api.ApiReplies.BatchOutcome;
import dev.gq.api.GqApi;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchSubmitTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private Cli.Result batch(String text, String... options) throws Exception {
    Path f = dir.resolve("jobs.txt");
    Files.writeString(f, text);
    List<String> argv = new ArrayList<>(List.of("submit", "--batch", "jobs.txt"));
    argv.addAll(List.of(options));
    return cli.run(argv.toArray(String[]::new));
  }

  private List<BatchLine> onlyBatch() {
    assertEquals(1, cli.api.batches.size(), "one batch call expected");
    return cli.api.batches.get(0);
  }

  @Test
  void aFileThatIsNotUtf8IsRefusedWithWhatToDoAndNothingIsSent() throws Exception {
    Path f = dir.resolve("latin1.txt");
    Files.write(f, new byte[] {'e', 'c', 'h', 'o', ' ', (byte) 0xe9, '\n'});
    Cli.Result r = cli.run("submit", "--batch", "latin1.txt");
    assertEquals(1, r.code());
    assertEquals("gq: batch file " + f.toRealPath() + " is not UTF-8 text; convert it (iconv -t UTF-8) and submit again\n", r.err());
    assertEquals(0, cli.api.batches.size());
  }

  @Test
  void plainLinesAreSplitLikeAShellAndSentInOneCall() throws Exception {
    Cli.Result r = batch("# sweep\n\npython train.py --lr 3e-4\n  python train.py --name 'run two'  # second\n", "-g", "2", "--group", "s");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted 2 jobs: 1-2\n", r.out());
    List<BatchLine> lines = onlyBatch();
    assertEquals(List.of(3, 4), lines.stream().map(BatchLine::line).toList());
    JobSpec second = lines.get(1).spec();
    assertEquals(List.of("python", "train.py", "--name", "run two"), second.argv());
    assertEquals(2, second.gpus());
    assertEquals("s", second.group());
    assertEquals(dir.toRealPath().toString(), second.cwd());
  }

  @Test
  void jsonLinesSetTheirOwnFields() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Cli.Result r = batch("{\"argv\": [\"a\", \"b c\"], \"gpus\": 0, \"name\": \"n\", \"group\": \"g\", \"key\": \"k1\","
        + " \"after\": 7, \"after_ok\": [8, 9], \"retries\": 2, \"time\": \"2h\", \"cwd\": \"sub\"}\n{\"argv\": [\"x\"]}\n",
        "--time", "10m", "--retries", "1");
    assertEquals(0, r.code(), r.err());
    JobSpec a = onlyBatch().get(0).spec();
    assertEquals(List.of("a", "b c"), a.argv());
    assertEquals(0, a.gpus());
    assertEquals("k1", a.key());
    assertEquals(List.of(new Dependency(7, false), new Dependency(8, true), new Dependency(9, true)), a.after());
    assertEquals(2, a.retries());
    assertEquals(Duration.ofHours(2), a.timeLimit());
    assertEquals(dir.resolve("sub").toRealPath().toString(), a.cwd());
    JobSpec b = onlyBatch().get(1).spec();
    assertEquals(1, b.gpus());
    assertEquals(Duration.ofMinutes(10), b.timeLimit());
    assertEquals(1, b.retries());
  }

  @Test
  void aBadLineSubmitsNothingAndNamesItsLine() throws Exception {
    String[][] cases = {
        {"ok\nls *.txt\n", "gq: batch line 2: unquoted '*' would be a file name pattern"},
        {"ok\n\n{\"argv\": [\"x\"], \"gpu\": 2}\n", "gq: batch line 3: unknown member 'gpu'; use argv, gpus"},
        {"{\"argv\": []}\n", "gq: batch line 1: 'argv' must be a non-empty list of strings"},
        {"{\"argv\": [\"x\"], \"time\": \"1.5h\"}\n", "gq: batch line 1: invalid duration '1.5h' in 'time'; use a count and a unit"},
        {"{\"argv\": [\"x\"], \"group\": \" \"}\n", "gq: batch line 1: the group must not be blank"},
        {"{\"argv\": [\"x\"], \"key\": \"" + "k".repeat(201) + "\"}\n", "gq: batch line 1: the key must be at most 200 characters"},
        {"{\"argv\": [\"x\"], \"after\": \"12\"}\n", "gq: batch line 1: 'after' must be a job id or a list of job ids"},
        {"{\"argv\": [\"x\"],\n", "gq: batch line 1: invalid JSON"},
        {"echo 'open\n", "gq: batch line 1: unterminated single quote"},
        {"{\"argv\": [\"x\"], \"cwd\": \"nope\"}\n", "gq: batch line 1: the directory 'nope' does not exist"},
        {"{\"argv\": [\"\"]}\n", "gq: batch line 1: the command name must not be empty;"},
        {"{\"argv\": [\"x\", \"a\\u0000b\"]}\n", "gq: batch line 1: argument 2 of the command contains a NUL byte;"},
    };
    for (String[] c : cases) {
      Cli.Result r = batch(c[0]);
      assertEquals(1, r.code(), c[0]);
      assertTrue(r.err().startsWith(c[1]), r.err());
      assertTrue(r.err().strip().endsWith("; nothing was submitted"), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
    }
    assertTrue(cli.api.batches.isEmpty());
  }

  @Test
  void integersOutOfRangeAreRefusedNotWrapped() throws Exception {
    String[][] cases = {
        {"{\"argv\": [\"x\"], \"after\": 18446744073709551658}\n",
            "gq: batch line 1: 'after' must be a job id or a list of job ids, like 12 or [12, 14]; 18446744073709551658 is not one"},
        {"a\n{\"argv\": [\"x\"], \"after_ok\": [3, 18446744073709551658]}\n", "gq: batch line 2: 'after_ok' must be a job id"},
        {"{\"argv\": [\"x\"], \"gpus\": 18446744073709551618}\n",
            "gq: batch line 1: 'gpus' must be a whole number from 0 to 1000000, not 18446744073709551618"},
        {"{\"argv\": [\"x\"], \"gpus\": 4294967298}\n", "gq: batch line 1: 'gpus' must be a whole number from 0 to 1000000"},
        {"{\"argv\": [\"x\"], \"gpus\": 2.0}\n", "gq: batch line 1: 'gpus' must be a whole number"},
        {"{\"argv\": [\"x\"], \"retries\": 1e1}\n", "gq: batch line 1: 'retries' must be a whole number"},
    };
    assertAllRefused(cases);
  }

  @Test
  void duplicateMembersTrailingTextBadEscapesAndLoneSurrogatesAreRefused() throws Exception {
    String[][] cases = {
        {"{\"argv\": [\"x\"], \"gpus\": 0, \"gpus\": 2}\n", "gq: batch line 1: invalid JSON at offset 27: duplicate key 'gpus'"},
        {"{\"argv\": [\"x\"]} {\"argv\": [\"y\"]}\n", "gq: batch line 1: invalid JSON at offset 16: unexpected text after the JSON value"},
        {"{\"argv\": [\"x\"]} trailing\n", "gq: batch line 1: invalid JSON at offset 16: unexpected text"},
        {"{\"argv\": [\"\\q\"]}\n", "gq: batch line 1: invalid JSON at offset 11: invalid escape '\\q'"},
        {"{\"argv\": [\"a\\ud800\"]}\n", "gq: batch line 1: invalid JSON at offset 11: the string holds a lone surrogate (\\ud800)"},
        {"{\"argv\": [\"\\udc00b\"]}\n", "gq: batch line 1: invalid JSON at offset 11: the string holds a lone surrogate (\\udc00)"},
    };
    assertAllRefused(cases);
  }

  @Test
  void aSurrogatePairAndTheLargestIdAreAccepted() throws Exception {
    Cli.Result r = batch("{\"argv\": [\"\\ud83d\\ude00\"], \"after\": 9223372036854775807}\n");
    assertEquals(0, r.code(), r.err());
    JobSpec a = onlyBatch().get(0).spec();
    assertEquals(List.of("\ud83d\ude00"), a.argv());
    assertEquals(List.of(new Dependency(Long.MAX_VALUE, false)), a.after());
  }

  private void assertAllRefused(String[][] cases) throws Exception {
    for (String[] c : cases) {
      Cli.Result r = batch(c[0]);
      assertEquals(1, r.code(), c[0]);
      assertTrue(r.err().startsWith(c[1]), r.err());
      assertTrue(r.err().strip().endsWith("; nothing was submitted"), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
    }
    assertTrue(cli.api.batches.isEmpty());
  }

  @Test
  void standardInputIsAskedForWithDash() {
    cli.io.stdin = "a\nb\n";
    Cli.Result r = cli.run("submit", "--batch", "-");
    assertEquals(0, r.code(), r.err());
    assertEquals(1, cli.io.stdinReads);
    assertEquals(2, onlyBatch().size());
  }

  @Test
  void noStandardInputIsRefused() {
    Cli.Result r = cli.run("submit", "--batch", "-");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: there is no standard input to read the batch from"), r.err());
  }

  @Test
  void emptyBatchMissingFileKeyOptionAndScriptTogetherAreRefused() throws Exception {
    assertEquals("gq: the batch jobs.txt holds no jobs, only blank or # lines\n", batch("# nothing\n\n").err());
    assertTrue(cli.run("submit", "--batch", "nope.txt").err().startsWith("gq: batch file "), "missing file");
    assertEquals(2, batch("x\n", "--key", "k").code());
    assertEquals(2, cli.run("submit", "--batch", "jobs.txt", "script.sh").code());
    assertTrue(cli.api.batches.isEmpty());
  }

  @Test
  void skippedLinesAreListedAndJsonHasOneObjectPerLine() throws Exception {
    cli.api.nextBatch = List.of(new BatchOutcome(1, 5, false, JobState.WAITING, null),
        new BatchOutcome(2, 3, true, JobState.DONE, "Skipped: key 'k' is already DONE as job 3"));
    Cli.Result r = batch("a\nb\n");
    assertEquals("Submitted 1 job: 5\nSkipped 1 line whose key is taken:\n  line 2: key 'k' is already DONE as job 3\n", r.out());
    String json = batch("a\nb\n", "--json").out();
    assertTrue(json.contains("\"line\": 2,\n    \"id\": 3,\n    \"skipped\": true"), json);
  }

  @Test
  void parsablePrintsOneIdALineInTheBatchsOrder() throws Exception {
    cli.api.nextBatch = List.of(new BatchOutcome(1, 5, false, JobState.WAITING, null),
        new BatchOutcome(2, 3, true, JobState.DONE, "Skipped: key 'k' is already DONE as job 3"),
        new BatchOutcome(3, 6, false, JobState.WAITING, null));
    Cli.Result r = batch("a\nb\nc\n", "-q");
    assertEquals(0, r.code(), r.err());
    assertEquals("5\n3\n6\n", r.out());
    assertEquals(2, batch("a\n", "--parsable", "--json").code());
  }

  @Test
  void aThousandLinesAreOneCall() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 1000; i++) sb.append("python train.py --seed ").append(i).append('\n');
    Cli.Result r = batch(sb.toString(), "--group", "big");
    assertEquals("Submitted 1000 jobs: 1-1000\n", r.out());
    assertEquals(1000, onlyBatch().size());
  }

  @Test
  void daemonRefusalIsOneLine() throws Exception {
    cli.api.refuseWith = new ApiException("line 2: job 99 does not exist; nothing was submitted");
    Cli.Result r = batch("a --after 1\nb\n");
    assertEquals(1, r.code());
    assertEquals("gq: line 2: job 99 does not exist; nothing was submitted\n", r.err());
  }

  @Test
  void aBatchIntoAHeldGroupGetsOneNoteNamingOnlyTheJobsItHolds() throws Exception {
    cli.api.queue = new GqApi.QueueState(false, Map.of("s", "held by the user"));
    Cli.Result r = batch("a\nb\n{\"argv\": [\"c\"], \"group\": \"t\"}\nd\n", "--group", "s");
    assertEquals(0, r.code(), r.err());
    assertEquals("Submitted 4 jobs: 1-4\n", r.out());
    assertEquals("gq: group s is held (held by the user), so jobs 1-2, 4 wait until 'gq release --group s'\n", r.err());
  }

  @Test
  void aBatchIntoAHeldQueueGetsOneNote() throws Exception {
    cli.api.queue = new GqApi.QueueState(true, Map.of());
    Cli.Result r = batch("a\nb\n");
    assertEquals(0, r.code(), r.err());
    assertEquals("gq: the queue is held, so jobs 1-2 wait until 'gq release --all'\n", r.err());
  }

  @Test
  void linesEndedByAnyOfTheThreeEndingsKeepTheirNumbersAndAreParsedWhenRead() throws Exception {
    var d = new BatchDefaults(1, null, null, dir.toString(), dir, Map.of(), Scheduling.NONE);
    BatchLines lines = BatchLines.of("a 1\r\n\rb 2\r# c\n\nd 4", d);
    assertEquals(List.of(1, 3, 6), lines.stream().map(GqApi.BatchLine::line).toList());
    assertEquals(List.of(List.of("a", "1"), List.of("b", "2"), List.of("d", "4")), lines.stream().map(l -> l.spec().argv()).toList());
    // kept as text, not as specs: each read parses its line again
    assertEquals(lines.get(1).spec(), lines.get(1).spec());
    assertNotSame(lines.get(1).spec(), lines.get(1).spec());
    assertEquals(0, BatchLines.of("", d).size());
    assertEquals(List.of(1), BatchLines.of("x\n", d).stream().map(GqApi.BatchLine::line).toList());
  }

  @Test
  void aChangeThatMayRefuseIsTriedOnEveryLineAtOnceAndEveryChangeIsKeptForTheReading() throws Exception {
    var d = new BatchDefaults(1, null, "g", dir.toString(), dir, Map.of(), Scheduling.NONE);
    BatchLines lines = BatchLines.of("a\n{\"argv\": [\"b\"], \"group\": \"h\"}\nc\n", d);
    assertEquals(List.of(1, 2, 3), List.of(lines.line(0), lines.line(1), lines.line(2)));
    assertEquals(List.of("g", "h", "g"), List.of(lines.group(0), lines.group(1), lines.group(2)));
    List<String> seen = new ArrayList<>();
    BatchLines quiet = lines.changedBy(s -> {
      seen.add(s.argv().get(0));
      return s.withArgv(List.of(s.argv().get(0), "changed"));
    }, false);
    assertEquals(List.of(), seen, "one that cannot refuse is left to the reading");
    BatchLines tried = quiet.changedBy(s -> s.withArgv(List.of(s.argv().get(0), s.argv().get(1), "again")), true);
    assertEquals(List.of("a", "b", "c"), seen, "one that may refuse is tried on every line, after those before it");
    assertEquals(List.of("b", "changed", "again"), tried.get(1).spec().argv());
    RefusedException refused = assertThrows(RefusedException.class, () -> lines.changedBy(s -> {
      if (s.argv().get(0).equals("c")) throw new RefusedException("not c");
      return s;
    }, true));
    assertEquals("not c", refused.getMessage());
  }
}
