package dev.gq.core.idle;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdleJobsTest {
  private static final Duration AFTER = Duration.ofMinutes(30);

  private static Job running(long id, int... gpus) {
    List<GpuSlot> slots = java.util.Arrays.stream(gpus).mapToObj(i -> new GpuSlot(uuid(i), i)).toList();
    return new Job(id, spec(gpus.length), JobState.RUNNING, T0, T0, null, slots, null, null, null, null, "tag", null);
  }

  private static DeviceReading util(int index, Integer percent) {
    DeviceReading d = device(index);
    return new DeviceReading(d.index(), d.uuid(), d.name(), d.totalBytes(), d.usedBytes(), d.processes(), null,
        new GpuFigures(percent, null, null, null, null));
  }

  private static GpuReading reading(DeviceReading... ds) {
    return new GpuReading(T0, List.of(ds), null);
  }

  private static Instant at(int minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  @Test
  void aJobWhoseGpusShowZeroLongerThanTheThresholdBecomesIdleOnce() {
    List<Job> live = List.of(running(1, 0, 1));
    var r = reading(util(0, 0), util(1, 0));
    var s = IdleJobs.NONE.observed(live, r, at(0), AFTER);
    assertEquals(List.of(), s.becameIdle());
    s = s.next().observed(live, r, at(30), AFTER);
    assertEquals(List.of(), s.becameIdle(), "exactly the threshold is not longer than it");
    assertNull(s.next().idleSince(1, at(30), AFTER));
    s = s.next().observed(live, r, at(31), AFTER);
    assertEquals(List.of(1L), s.becameIdle());
    assertEquals(at(0), s.next().idleSince(1, at(45), AFTER));
    s = s.next().observed(live, r, at(60), AFTER);
    assertEquals(List.of(), s.becameIdle(), "told once per stretch");
  }

  @Test
  void anyUtilisationEndsTheStretchAndANewOneIsToldAgain() {
    List<Job> live = List.of(running(1, 0, 1));
    var zero = reading(util(0, 0), util(1, 0));
    var s = IdleJobs.NONE.observed(live, zero, at(0), AFTER).next().observed(live, zero, at(31), AFTER);
    assertEquals(List.of(1L), s.becameIdle());
    s = s.next().observed(live, reading(util(0, 0), util(1, 5)), at(32), AFTER);
    assertNull(s.next().idleSince(1, at(32), AFTER));
    s = s.next().observed(live, zero, at(33), AFTER).next().observed(live, zero, at(64), AFTER);
    assertEquals(List.of(1L), s.becameIdle());
  }

  @Test
  void aJobWithUnknownUtilisationIsNeverIdle() {
    List<Job> live = List.of(running(1, 0));
    var unknown = reading(util(0, null));
    var s = IdleJobs.NONE.observed(live, unknown, at(0), AFTER).next().observed(live, unknown, at(90), AFTER);
    assertEquals(List.of(), s.becameIdle());
    assertEquals(java.util.Map.of(), s.next().idle(at(90), AFTER));
    var failed = GpuReading.failed(at(91), "driver gone");
    var z = IdleJobs.NONE.observed(live, reading(util(0, 0)), at(0), AFTER).next().observed(live, failed, at(40), AFTER);
    assertEquals(List.of(), z.becameIdle(), "a failed reading ends the stretch");
  }

  @Test
  void jobsWithoutGpusOrNotRunningAndAZeroThresholdAreNeverIdle() {
    Job cpu = new Job(2, spec(0), JobState.RUNNING, T0, T0, null, List.of(), null, null, null, null, "t", null);
    var zero = reading(util(0, 0));
    var s = IdleJobs.NONE.observed(List.of(cpu), zero, at(0), AFTER).next().observed(List.of(cpu), zero, at(60), AFTER);
    assertEquals(List.of(), s.becameIdle());
    var off = IdleJobs.NONE.observed(List.of(running(1, 0)), zero, at(0), Duration.ZERO);
    assertSame(IdleJobs.NONE, off.next());
  }
}
