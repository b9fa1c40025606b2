package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueOrderColumnsTest {
  private static Cli queue() {
    Cli cli = new Cli(Path.of("/tmp"));
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.WAITING));
    cli.api.add(Jobs.job(3, JobState.WAITING, Jobs.spec("python", "eval.py").withPriority(6)));
    cli.api.add(Jobs.job(4, JobState.WAITING));
    return cli;
  }

  private static List<String> column(String out, int field) {
    return out.lines().skip(1).map(l -> l.trim().split("\\s+")[field]).toList();
  }

  @Test
  void priorityAndPlaceInTheQueueShowOnceAPriorityReordersIt() {
    Cli.Result r = queue().run("ps");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().lines().findFirst().orElseThrow().matches("JOB\\s+STATE\\s+POS\\s+PRIORITY\\s+GPUS.*"), r.out());
    assertEquals(List.of("4", "3", "2", "1"), column(r.out(), 0));
    assertEquals(List.of("3", "1", "2", "-"), column(r.out(), 2), "job 3 starts next, then 2, then 4");
    assertEquals(List.of("0", "6", "0", "0"), column(r.out(), 3));
  }

  @Test
  void withoutPrioritiesTheQueueIsInIdOrderAndTheColumnsStayOut() {
    Cli cli = new Cli(Path.of("/tmp"));
    cli.api.add(Jobs.job(1, JobState.WAITING));
    Cli.Result r = cli.run("ps");
    assertFalse(r.out().contains("POS") || r.out().contains("PRIORITY"), r.out());
    Cli.Result asked = cli.run("ps", "-o", "id,pos,priority");
    assertEquals(List.of("1 1 0"), asked.out().lines().skip(1).map(l -> l.trim().replaceAll("\\s+", " ")).toList());
  }

  @Test
  void sortQueueListsTheNextToStartFirstAndPriorityTheHighest() {
    Cli cli = queue();
    assertEquals(List.of("3", "2", "4", "1"), column(cli.run("ps", "--sort", "queue", "-o", "id").out(), 0));
    assertEquals(List.of("3", "2", "4", "1"), column(cli.run("ps", "--sort", "priority", "-o", "id").out(), 0));
    assertEquals(List.of("4", "3", "2", "1"), column(cli.run("ps", "--sort", "id", "-o", "id").out(), 0));
  }

  @Test
  void aPlaceIsCountedOverTheWholeQueueWhenTheListIsFiltered() {
    Cli.Result r = queue().run("ps", "4", "-o", "id,pos");
    assertEquals(List.of("3"), column(r.out(), 1));
  }

  @Test
  void anUnknownOrderGetsTheClosestName() {
    Cli.Result r = queue().run("ps", "--sort", "queu");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: unknown order 'queu' for --sort; did you mean queue?"), r.err());
  }
}
