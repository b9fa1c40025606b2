package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.Prerequisite;
import dev.gq.core.ledger.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Events and snapshots as stored by gq before sweeps existed still read back, through the same
 * Jackson serializer the journal uses, and the new shapes round-trip.
 */
class StoredShapesTest {
  private static final ActorTestKit KIT = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.actor.serialization-bindings {
        "dev.gq.core.ledger.LedgerEvent" = jackson-json
        "dev.gq.core.ledger.Ledger" = jackson-json
        "dev.gq.persistence.LedgerSnapshot" = jackson-json
      }
      pekko.serialization.jackson.jackson-json.serialization-features.WRITE_DATES_AS_TIMESTAMPS = off
      """));
  private static final Serialization SER = SerializationExtension.get(KIT.system().classicSystem());
  private static final Instant T = Instant.parse("2026-11-29T10:00:00.123456789Z");

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  /** Reads {@code json} as stored for objects of {@code sample}'s class. */
  private static Object read(String json, Object sample) {
    Serializer s = SER.findSerializerFor(sample);
    String manifest = sample.getClass().getName(); // as stored before any migration: no version
    return SER.deserialize(json.getBytes(StandardCharsets.UTF_8), s.identifier(), manifest).get();
  }

  private static Object roundTrip(Object o) {
    byte[] bytes = SER.serialize(o).get();
    Serializer s = SER.findSerializerFor(o);
    return SER.deserialize(bytes, s.identifier(), ((SerializerWithStringManifest) s).manifest(o)).get();
  }

  @Test
  void aSubmissionStoredBeforeSweepsReadsBackWithNoDependenciesRetriesOrLimit() {
    String old = "{\"jobId\":1,\"spec\":{\"argv\":[\"bash\",\"-c\",\"exit 3\"],\"cwd\":\"/w\",\"env\":{\"A\":\"1\"},"
        + "\"gpus\":2,\"name\":null,\"group\":\"g\",\"key\":null},\"tag\":\"t-1\",\"logPath\":\"/d/logs/1.log\","
        + "\"retryOf\":null,\"at\":\"2026-11-29T10:00:00.123456789Z\"}";
    JobSubmitted e = (JobSubmitted) read(old, new JobSubmitted(1, null, null, null, null, T));
    assertEquals(new JobSpec(List.of("bash", "-c", "exit 3"), "/w", Map.of("A", "1"), 2, null, "g", null), e.spec());
    assertEquals(List.of(), e.waitsFor());
    assertNull(e.sameAs(), "a submission stored before commands were shared carries its own");
    assertEquals(0, e.spec().retries());
    assertNull(e.spec().timeLimit());
  }

  @Test
  void aSnapshotKeepsWhatSchedulingNeedsOfEachWaitingJobAndNoCommand() {
    JobSpec cell = new JobSpec(List.of("python", "train.py"), "/w", Map.of("HOME", "/home/u"), 1, "c", "g", "k")
        .withAfter(List.of(new Dependency(1, true))).withRetries(2).withTimeLimit(Duration.ofHours(2));
    Ledger l = Ledger.empty()
        .apply(new JobSubmitted(1, cell.withAfter(List.of()), "t-1", "/l/1", null, T))
        .apply(new JobReserved(1, List.of(new dev.gq.core.job.GpuSlot("GPU-0", 0)), T))
        .apply(new JobSubmitted(2, cell, "t-2", "/l/2", null, List.of(new Prerequisite(1, 1, true, null)), T))
        .apply(new JobSubmitted(3, new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null), "t-3", "/l/3", 1L, T));
    var snapshot = dev.gq.persistence.LedgerSnapshot.of(l);
    byte[] stored = SER.serialize(snapshot).get();
    String json = new String(stored, StandardCharsets.UTF_8);
    assertFalse(json.contains("python") || json.contains("/home/u") || json.contains("/l/2"), json);
    String waiting = json.substring(json.indexOf("\"waiting\""), json.indexOf("\"active\""));
    assertFalse(waiting.contains("null") || waiting.contains("[]"), "absent fields are left out: " + waiting);
    var back = (dev.gq.persistence.LedgerSnapshot) roundTrip(snapshot);
    assertEquals(l, back.ledger());
    assertEquals(2, back.waiting().size());
    assertEquals(1, back.active().size());
  }

  @Test
  void aSnapshotKeepsWhatEachWaitingJobNeedsOfItsGpus() {
    JobSpec big = new JobSpec(List.of("python", "train.py"), "/w", Map.of(), 1, "c", null, null)
        .withGpuNeed(new dev.gq.core.job.GpuNeed(38147, List.of("H100")));
    Ledger l = Ledger.empty().apply(new JobSubmitted(1, big, "t-1", "/l/1", null, T));
    var back = (dev.gq.persistence.LedgerSnapshot) roundTrip(dev.gq.persistence.LedgerSnapshot.of(l));
    assertEquals(l, back.ledger());
    assertEquals(new dev.gq.core.job.GpuNeed(38147, List.of("H100")), back.ledger().live().get(1L).spec().gpuNeed());
  }

  @Test
  void aSnapshotKeepsEachSharedJobsShareAndWhoWasToldItIsOver() {
    JobSpec small = new JobSpec(List.of("python", "eval.py"), "/w", Map.of(), 1, "e", null, null)
        .withGpuNeed(new dev.gq.core.job.GpuNeed(19074, List.of(), true, 4));
    Ledger l = Ledger.empty().apply(new JobSubmitted(1, small, "t-1", "/l/1", null, T))
        .apply(new JobSubmitted(2, small, "t-2", "/l/2", null, T))
        .apply(new dev.gq.core.ledger.LedgerEvent.JobOverShare(1, "GPU-a", 0, 30000, 19074, T));
    assertEquals(java.util.Set.of(1L), l.settings().overTold());
    var back = (dev.gq.persistence.LedgerSnapshot) roundTrip(dev.gq.persistence.LedgerSnapshot.of(l));
    assertEquals(l, back.ledger());
    assertEquals(new dev.gq.core.job.GpuNeed(19074, List.of(), true, 4), back.ledger().live().get(2L).spec().gpuNeed());
    assertEquals(java.util.Set.of(1L), back.ledger().settings().overTold());
  }

  @Test
  void aSnapshotStoredAsAWholeLedgerLoadsWithoutTheCommandsItHeld() {
    String old = "{\"nextId\":2,\"live\":{\"1\":{\"id\":1,\"spec\":{\"argv\":[\"python\",\"x.py\"],\"cwd\":\"/w\","
        + "\"env\":{\"A\":\"1\"},\"gpus\":1,\"name\":null,\"group\":\"g\",\"key\":null},\"state\":\"WAITING\","
        + "\"submitTime\":\"2026-11-29T10:00:00Z\",\"startTime\":null,\"endTime\":null,\"gpus\":[],\"identity\":null,"
        + "\"exitCode\":null,\"logPath\":\"/d/logs/1.log\",\"failureReason\":null,\"tag\":\"t-1\",\"retryOf\":null}},"
        + "\"keys\":{},\"paused\":true,\"holds\":{}}";
    Ledger l = new SnapshotShape().fromJournal(read(old, Ledger.empty()));
    var j = l.live().get(1L);
    assertEquals(List.of(), j.spec().argv());
    assertEquals(Map.of(), j.spec().env());
    assertNull(j.logPath());
    assertEquals("g", j.spec().group());
    assertEquals(1, j.spec().gpus());
    assertTrue(l.queueHeld());
  }

  @Test
  void aSnapshotStoredBeforeSweepsReadsBackWithEmptySweepState() {
    String old = "{\"nextId\":3,\"live\":{},\"keys\":{\"k\":{\"jobId\":2,\"state\":\"DONE\"}},\"paused\":false,"
        + "\"holds\":{\"g\":\"held by the user\"}}";
    Ledger l = (Ledger) read(old, Ledger.empty());
    assertEquals(3, l.nextId());
    assertEquals(new Ledger.KeyHolder(2, JobState.DONE), l.keys().get("k"));
    assertEquals(Map.of("g", "held by the user"), l.holds());
    assertTrue(l.waits().isEmpty() && l.streaks().isEmpty() && l.autoHeld().isEmpty() && l.recentEnds().isEmpty());
  }

  @Test
  void theNewEventsAndSweepStateRoundTrip() {
    JobSpec spec = new JobSpec(List.of("x"), "/w", Map.of(), 0, null, "g", "k")
        .withAfter(List.of(new Dependency(4, true))).withRetries(2).withTimeLimit(Duration.ofMinutes(90));
    List<LedgerEvent> events = List.of(
        new JobSubmitted(5, spec, "t", "/l", 1L, List.of(new Prerequisite(4, 4, true, null)), T),
        new JobTimedOut(5, 143, "exceeded its time limit of 1h30m", T),
        new GroupHeld("g", "3 jobs in a row failed within 60 s of starting (1, 2, 3)", true, T),
        new JobsRemoved(List.of(1L, 2L), T),
        new JobSubmitted(8, spec.withEnv(Map.of()), "t", "/l", null, List.of(), T, 5L));
    for (LedgerEvent e : events) assertEquals(e, roundTrip(e));
    Ledger l = Ledger.empty();
    for (LedgerEvent e : events.subList(0, 3)) l = l.apply(e);
    l = l.apply(new JobSubmitted(6, spec, "t", "/l", null, List.of(new Prerequisite(4, 4, true, null)), T));
    l = l.apply(new JobSubmitted(7, spec.withAfter(List.of()), "t", "/l", null, T));
    l = l.apply(new JobReserved(7, List.of(), T));
    l = l.apply(new JobExited(7, 1, null, T));
    assertFalse(l.waits().isEmpty() || l.streaks().isEmpty() || l.recentEnds().isEmpty() || l.autoHeld().isEmpty());
    assertEquals(l, roundTrip(l));
  }

  @Test
  void anEndStoredBeforeItCouldNameAPidReadsBackWithNoneAndTheNewShapeRoundTrips() {
    String old = "{\"jobId\":7,\"exitCode\":3,\"reason\":null,\"at\":\"2026-11-29T10:00:00.123456789Z\"}";
    JobExited e = (JobExited) read(old, new JobExited(7, 3, null, T));
    assertEquals(new JobExited(7, 3, null, T), e);
    assertNull(e.pid());
    JobExited named = new JobExited(7, 0, null, T, 4321L);
    assertEquals(named, roundTrip(named));
    Ledger l = Ledger.empty()
        .apply(new JobSubmitted(7, new JobSpec(List.of("x"), "/w", Map.of(), 0, null, null, null), "t", "/l", null, T))
        .apply(new JobReserved(7, List.of(), T))
        .apply(named);
    assertEquals(l, roundTrip(l));
  }

  @Test
  void theSkippedIdsEventReadsBackFromItsStoredJson() {
    JobIdsSkipped e = new JobIdsSkipped(46, "logs/ or run/ hold files of job 45, which the history does not know", T);
    String stored = "{\"nextId\":46,\"reason\":\"logs/ or run/ hold files of job 45, which the history does not know\","
        + "\"at\":\"2026-11-29T10:00:00.123456789Z\"}";
    assertEquals(e, read(stored, e));
    assertEquals(e, roundTrip(e));
    assertEquals(46, Ledger.empty().apply(e).nextId());
  }

  @Test
  void theQueueSettingsRoundTripInEventsLedgersAndSnapshots() {
    List<LedgerEvent> events = List.of(new GroupLimitSet("g", 4, T), new GpuDrained("GPU-a", "kept for notebooks", T),
        new GpuResumed("GPU-b", T), new GroupLimitSet("h", null, T));
    for (LedgerEvent e : events) assertEquals(e, roundTrip(e));
    Ledger l = Ledger.empty();
    for (LedgerEvent e : events) l = l.apply(e);
    assertEquals(new QueueSettings(Map.of("g", 4), Map.of("GPU-a", "kept for notebooks")), l.settings());
    assertEquals(l, roundTrip(l));
    var snapshot = dev.gq.persistence.LedgerSnapshot.of(l);
    assertEquals(l.settings(), ((dev.gq.persistence.LedgerSnapshot) roundTrip(snapshot)).ledger().settings());
    String old = "{\"nextId\":3,\"live\":{},\"keys\":{},\"paused\":false,\"holds\":{}}";
    assertEquals(QueueSettings.NONE, ((Ledger) read(old, Ledger.empty())).settings());
  }

  @Test
  void changedJobsHeldJobsAndPrioritiesRoundTrip() {
    JobSpec spec = new JobSpec(List.of("x"), "/w", Map.of(), 1, null, null, null).withPriority(7);
    List<LedgerEvent> events = List.of(new JobSubmitted(3, spec, "t", "/l", null, T),
        new JobChanged(3, 2, -4, true, Duration.ofMinutes(5), Map.of("A", "1"), List.of("B"), T), new JobsHeld(List.of(3L), true, T));
    for (LedgerEvent e : events) assertEquals(e, roundTrip(e));
    Ledger l = Ledger.empty();
    for (LedgerEvent e : events) l = l.apply(e);
    assertEquals(-4, l.live().get(3L).spec().priority());
    assertEquals(java.util.Set.of(3L), l.settings().heldJobs());
    assertEquals(l, roundTrip(l));
    var back = ((dev.gq.persistence.LedgerSnapshot) roundTrip(dev.gq.persistence.LedgerSnapshot.of(l))).ledger();
    assertEquals(l.settings(), back.settings());
    assertEquals(l.live().get(3L).spec().priority(), back.live().get(3L).spec().priority());
    String old = "{\"jobId\":1,\"spec\":{\"argv\":[\"x\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":1},\"tag\":\"t\","
        + "\"logPath\":\"/l\",\"retryOf\":null,\"at\":\"2026-11-29T10:00:00Z\"}";
    JobSubmitted stored = (JobSubmitted) read(old, new JobSubmitted(1, null, null, null, null, T));
    assertEquals(0, stored.spec().priority(), "a spec stored before priorities has priority 0");
  }

  @Test
  void aPreemptionUnderWayAndGpusKeptForAJobRoundTripInLedgersAndSnapshots() {
    JobSpec spec = new JobSpec(List.of("x"), "/w", Map.of(), 1, null, null, null).withResumeArg("--resume {ckpt}").resuming(null);
    List<LedgerEvent> events = List.of(
        new JobSubmitted(1, spec, "t1", "/l1", null, T), new JobReserved(1, List.of(new dev.gq.core.job.GpuSlot("GPU-a", 0)), T),
        new JobSubmitted(2, spec, "t2", "/l2", null, T), new JobReserved(2, List.of(new dev.gq.core.job.GpuSlot("GPU-b", 1)), T),
        new JobSubmitted(3, spec, "t3", "/l3", null, T),
        new JobPreemptRequested(1, 10, true, Duration.ofMinutes(2), 3L, true, T),
        new JobPreemptRequested(2, 15, false, Duration.ofSeconds(30), 3L, false, T),
        new JobExited(2, 0, null, T));
    for (LedgerEvent e : events) assertEquals(e, roundTrip(e));
    Ledger l = Ledger.empty();
    for (LedgerEvent e : events) l = l.apply(e);
    assertEquals(java.util.Set.of(1L), l.settings().preempting().keySet());
    assertEquals(Map.of("GPU-b", 3L), l.settings().keptFor());
    assertEquals(l, roundTrip(l));
    var back = ((dev.gq.persistence.LedgerSnapshot) roundTrip(dev.gq.persistence.LedgerSnapshot.of(l))).ledger();
    assertEquals(l.settings(), back.settings());
    assertEquals(spec.resumeArg(), back.live().get(3L).spec().resumeArg(), "a waiting resume keeps its template");
    assertTrue(back.live().get(3L).spec().resumesFromNewest());
  }
}
