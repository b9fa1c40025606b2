package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tree built ahead serves the next request of its command exactly as a tree built for it would. */
class CommandTreesTest {
  @TempDir Path dir;

  /** Builds trees only when the test says so, on the test's thread. */
  static final class Later implements java.util.concurrent.Executor {
    final List<Runnable> queued = new ArrayList<>();

    @Override
    public void execute(Runnable r) {
      queued.add(r);
    }

    void runAll() {
      List<Runnable> now = List.copyOf(queued);
      queued.clear();
      now.forEach(Runnable::run);
    }
  }

  private Cli.Result run(Cli cli, CommandTrees trees, String... argv) {
    int before = cli.io.stdout().length();
    int beforeErr = cli.io.stderr().length();
    int code = Gq.run(List.of(argv), cli.io, cli.api, trees);
    return new Cli.Result(code, cli.io.stdout().substring(before), cli.io.stderr().substring(beforeErr));
  }

  @Test
  void aTreeBuiltAheadGivesWhatAFreshTreeGives() {
    Later later = new Later();
    CommandTrees trees = CommandTrees.builtBy(later);
    Cli cli = new Cli(dir);
    cli.io.env.put("NO_COLOR", "1");
    cli.api.now = Jobs.T0.plusSeconds(3600);
    for (long id = 1; id <= 30; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    cli.api.add(Jobs.job(31, JobState.RUNNING));

    Cli.Result fresh = cli.run("ps");
    Cli.Result first = run(cli, trees, "ps", "--all", "--no-header");
    assertEquals(31, first.out().lines().count(), "every job, no header");
    assertEquals(1, later.queued.size(), "the next ps tree is asked for as the first starts");
    later.runAll();
    assertEquals(1, trees.waiting());
    Cli.Result ahead = run(cli, trees, "ps");
    assertEquals(fresh, ahead);
    assertEquals(0, trees.waiting(), "the tree was taken; the next one is asked for");
    assertEquals(1, later.queued.size());
  }

  @Test
  void aRequestBuildsItsOwnTreeRatherThanWaitForABuildNotStartedAndEachTreeServesOneRequest() {
    Later later = new Later();
    CommandTrees trees = CommandTrees.builtBy(later);
    Cli cli = new Cli(dir);
    cli.api.add(Jobs.job(1, JobState.DONE));
    Cli.Result fresh = cli.run("show", "1");
    assertEquals(fresh, run(cli, trees, "show", "1"));
    assertEquals(fresh, run(cli, trees, "show", "1"), "the tree asked for had not started: built here instead");
    assertEquals(2, later.queued.size());
    later.runAll();
    assertEquals(1, trees.waiting(), "the build the second request claimed was skipped");
    run(cli, trees, "gpu");
    later.runAll();
    assertEquals(2, trees.waiting());
    CommandTrees.Ready show = trees.take("show");
    later.runAll();
    assertNotSame(show, trees.take("show"), "a tree is handed to one request only");
  }

  @Test
  void aCommandLineOfNoKnownCommandBuildsNothingAhead() {
    Later later = new Later();
    CommandTrees trees = CommandTrees.builtBy(later);
    Cli cli = new Cli(dir);
    run(cli, trees, "--help");
    run(cli, trees, "pss");
    assertEquals(0, later.queued.size());
  }

  @Test
  void anInvocationIsBoundOnce() {
    CommandTrees.Ready ready = Gq.unbound("ps");
    Cli cli = new Cli(dir);
    ready.inv().bind(cli.io, cli.api);
    assertThrows(IllegalStateException.class, () -> ready.inv().bind(cli.io, cli.api));
  }
}
