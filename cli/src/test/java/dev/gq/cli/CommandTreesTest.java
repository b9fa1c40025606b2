package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    assertEquals(1, later.queued.size(), "the next ps tree is asked for once the first has run");
    later.runAll();
    assertEquals(1, trees.waiting());
    Cli.Result ahead = run(cli, trees, "ps");
    assertEquals(fresh, ahead);
    assertEquals(0, trees.waiting(), "the tree was taken; the next one is asked for");
    assertEquals(1, later.queued.size());
  }

  @Test
  void aRequestBuildsItsOwnTreeRatherThanWaitForOneNotBuiltYetAndEachTreeServesOneRequest() {
    Later later = new Later();
    CommandTrees trees = CommandTrees.builtBy(later);
    Cli cli = new Cli(dir);
    cli.api.add(Jobs.job(1, JobState.DONE));
    Cli.Result fresh = cli.run("show", "1");
    assertEquals(fresh, run(cli, trees, "show", "1"));
    assertEquals(1, later.queued.size(), "the next show tree is asked for");
    assertEquals(fresh, run(cli, trees, "show", "1"), "the tree asked for is not built yet: built here instead");
    assertEquals(1, later.queued.size(), "one on its way is not asked for again");
    later.runAll();
    assertEquals(1, trees.waiting());
    run(cli, trees, "gpu");
    later.runAll();
    assertEquals(2, trees.waiting());
    CommandTrees.Ready show = trees.take("show");
    assertNotNull(show);
    assertNull(trees.take("show"), "a tree is handed to one request only");
    trees.refill("show", Gq::unbound);
    later.runAll();
    assertNotSame(show, trees.take("show"));
  }

  @Test
  void aTreeWhoseBuildFailedIsNotHandedOut() {
    CommandTrees trees = CommandTrees.builtBy(r -> {
      throw new java.util.concurrent.RejectedExecutionException("stopped");
    });
    trees.refill("ps", Gq::unbound);
    assertEquals(0, trees.waiting(), "a build the builder refused leaves nothing behind");
    assertNull(trees.take("ps"));
  }

  @Test
  void theBackgroundBuilderRunsItsStartHookOnItsOwnThreadFirst() throws Exception {
    java.util.concurrent.CompletableFuture<String> hook = new java.util.concurrent.CompletableFuture<>();
    try (CommandTrees trees = CommandTrees.inBackground(() -> hook.complete(Thread.currentThread().getName()))) {
      trees.refill("ps", Gq::unbound);
      assertEquals("gq-command-trees", hook.get(10, java.util.concurrent.TimeUnit.SECONDS));
      for (int i = 0; i < 1000 && trees.waiting() == 0; i++) Thread.sleep(10);
      assertNotNull(trees.take("ps"), "the tree was built after the hook ran");
    }
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
