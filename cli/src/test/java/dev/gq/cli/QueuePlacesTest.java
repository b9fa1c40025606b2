package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.QueueOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QueuePlacesTest {
  @Test
  void placesCountedPageByPageNewestFirstAreTheQueuesOrder() {
    Random random = new Random(7);
    List<Job> jobs = new ArrayList<>();
    for (long id = 1; id <= 3000; id++) {
      JobState state = random.nextInt(10) == 0 ? JobState.RUNNING : JobState.WAITING;
      int priority = random.nextInt(5) == 0 ? random.nextInt(21) - 10 : 0;
      jobs.add(Jobs.job(id, state, Jobs.spec("python", "train.py").withPriority(priority)));
    }
    jobs.sort(Comparator.comparingLong(Job::id).reversed());
    QueuePlaces places = new QueuePlaces();
    jobs.forEach(places::count);
    Map<Long, Integer> got = new HashMap<>();
    for (int from = 0; from < jobs.size(); from += 500) got.putAll(places.places(jobs.subList(from, Math.min(jobs.size(), from + 500))));
    assertEquals(QueueOrder.positions(jobs), got);
    assertEquals(QueueOrder.sorted(jobs).size(), places.total());
  }

  /** A listing read in pages prints what the whole list, read at once, prints. */
  @Test
  void aLongQueueWithPrioritiesGroupsAndRunningJobsListsAsTheWholeListDoes() {
    Cli cli = new Cli(Path.of("/tmp"));
    cli.api.now = Jobs.T0.plusSeconds(3600);
    cli.io.env.put("NO_COLOR", "1");
    cli.io.stdoutTty = false;
    Random random = new Random(11);
    for (long id = 1; id <= 1800; id++) {
      JobState state = id % 97 == 0 ? JobState.RUNNING : JobState.WAITING;
      String group = id % 3 == 0 ? "sweep-" + (id % 7) : null;
      int priority = random.nextInt(4) == 0 ? random.nextInt(7) - 3 : 0;
      cli.api.add(Jobs.job(id, state, Jobs.spec(state == JobState.RUNNING ? 2 : 1, null, group, null, "python", "t.py",
          "--cell", String.valueOf(id)).withPriority(priority)));
    }
    assertEquals(cli.run("ps", "--limit", "100000").out(), cli.run("ps").out());
    assertEquals(cli.run("ps", "--limit", "100000", "--group", "sweep-3").out(), cli.run("ps", "--group", "sweep-3").out());
    assertEquals(cli.run("ps", "--limit", "100000", "-o", "pos,id,command,name").out(), cli.run("ps", "-o", "pos,id,command,name").out());
  }
}
