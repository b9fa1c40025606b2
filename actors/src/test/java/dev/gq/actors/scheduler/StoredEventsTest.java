package dev.gq.actors.scheduler;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.Prerequisite;
import dev.gq.core.proc.ProcessIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every stored event type, as the journal holds it: one recorded JSON per type reads back as the
 * event, and the event is written as that same JSON. A renamed or retyped field fails here before
 * it can make a stored journal unreadable. A new event type must add its recorded JSON.
 */
class StoredEventsTest {
  private static final ActorTestKit KIT = ActorTestKit.create(ConfigFactory.parseString("""
      pekko.actor.serialization-bindings {
        "dev.gq.core.ledger.LedgerEvent" = jackson-json
      }
      pekko.serialization.jackson.jackson-json.serialization-features.WRITE_DATES_AS_TIMESTAMPS = off
      """));
  private static final Serialization SER = SerializationExtension.get(KIT.system().classicSystem());
  private static final ObjectMapper TREE = new ObjectMapper();
  private static final Instant T = Instant.parse("2026-11-29T10:00:00.123456789Z");
  private static final String AT = "\"at\":\"2026-11-29T10:00:00.123456789Z\"";

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  /** Each event type's sample and its JSON as stored. */
  private static Map<LedgerEvent, String> recorded() {
    JobSpec spec = new JobSpec(List.of("python", "train.py"), "/w", Map.of("A", "1"), 2, "n", "g", "k",
        List.of(new Dependency(4, true)), 1, Duration.ofMinutes(90), 5, Instant.parse("2026-11-30T08:00:00Z"),
        "--resume_from_checkpoint {ckpt}", "newest").withCluster("a100")
        .withGpuNeed(new GpuNeed(38147, List.of("A100", "H100"), true, 4));
    String specJson = "{\"argv\":[\"python\",\"train.py\"],\"cwd\":\"/w\",\"env\":{\"A\":\"1\"},\"gpus\":2,\"name\":\"n\","
        + "\"group\":\"g\",\"key\":\"k\",\"after\":[{\"jobId\":4,\"okOnly\":true}],\"retries\":1,\"timeLimit\":\"PT1H30M\","
        + "\"priority\":5,\"begin\":\"2026-11-30T08:00:00Z\",\"resumeArg\":\"--resume_from_checkpoint {ckpt}\","
        + "\"resumeFrom\":\"newest\",\"cluster\":\"a100\",\"gpuNeed\":{\"vramMiB\":38147,\"types\":[\"A100\",\"H100\"],\"share\":true,\"perGpu\":4}}";
    Map<LedgerEvent, String> m = new LinkedHashMap<>();
    m.put(new JobSubmitted(7, spec, "tag-7", "/d/logs/7.log", 3L, List.of(new Prerequisite(4, 4, true, JobState.DONE)), T, 6L),
        "{\"jobId\":7,\"spec\":" + specJson + ",\"tag\":\"tag-7\",\"logPath\":\"/d/logs/7.log\",\"retryOf\":3,"
            + "\"waitsFor\":[{\"jobId\":4,\"lineage\":4,\"okOnly\":true,\"ended\":\"DONE\"}]," + AT + ",\"sameAs\":6}");
    m.put(new JobReserved(7, List.of(new GpuSlot("GPU-a", 0)), T),
        "{\"jobId\":7,\"gpus\":[{\"uuid\":\"GPU-a\",\"index\":0}]," + AT + "}");
    m.put(new JobLaunched(7, new ProcessIdentity(100, 100, 100, 5555, "boot"), T),
        "{\"jobId\":7,\"identity\":{\"pid\":100,\"pgid\":100,\"sid\":100,\"startTicks\":5555,\"bootId\":\"boot\"}," + AT + "}");
    m.put(new JobAdopted(7, new JobSpec(List.of("python", "train.py"), "/w", Map.of(), 1, "n", "g", "k"), "tag-7",
            "/w/out.log", ProcessIdentity.adoptedProcess(4242, 777, "boot"), List.of(new GpuSlot("GPU-a", 0)),
            Instant.parse("2026-11-29T09:00:00Z"), T),
        "{\"jobId\":7,\"spec\":{\"argv\":[\"python\",\"train.py\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":1,\"name\":\"n\","
            + "\"group\":\"g\",\"key\":\"k\",\"after\":[],\"retries\":0,\"timeLimit\":null,\"priority\":0,\"begin\":null,\"resumeArg\":null,\"resumeFrom\":null,\"cluster\":null,\"gpuNeed\":null},"
            + "\"tag\":\"tag-7\",\"logPath\":\"/w/out.log\",\"identity\":{\"pid\":4242,\"pgid\":0,\"sid\":0,"
            + "\"startTicks\":777,\"bootId\":\"boot\"},\"gpus\":[{\"uuid\":\"GPU-a\",\"index\":0}],"
            + "\"startTime\":\"2026-11-29T09:00:00Z\"," + AT + "}");
    m.put(new JobLaunchFailed(7, "why", T), "{\"jobId\":7,\"reason\":\"why\"," + AT + "}");
    m.put(new JobCancelRequested(7, T), "{\"jobId\":7," + AT + "}");
    m.put(new JobPreemptRequested(7, 10, true, Duration.ofMinutes(2), 9L, true, T),
        "{\"jobId\":7,\"signal\":10,\"groupSignal\":true,\"grace\":\"PT2M\",\"forJob\":9,\"requeue\":true," + AT + "}");
    m.put(new JobCancelled(7, "why", T), "{\"jobId\":7,\"reason\":\"why\"," + AT + "}");
    m.put(new JobExited(7, 3, "why", T, 100L), "{\"jobId\":7,\"exitCode\":3,\"reason\":\"why\"," + AT + ",\"pid\":100}");
    m.put(new JobTimedOut(7, 143, "why", T), "{\"jobId\":7,\"exitCode\":143,\"reason\":\"why\"," + AT + "}");
    m.put(new JobInterrupted(7, "why", T), "{\"jobId\":7,\"reason\":\"why\"," + AT + "}");
    m.put(new JobOrphaned(7, "why", T), "{\"jobId\":7,\"reason\":\"why\"," + AT + "}");
    m.put(new JobRequeued(7, "why", T), "{\"jobId\":7,\"reason\":\"why\"," + AT + "}");
    m.put(new JobRecovered(7, T), "{\"jobId\":7," + AT + "}");
    m.put(new JobChanged(7, 1, -3, true, Duration.ofMinutes(5), Map.of("B", "2"), List.of("A"), T),
        "{\"jobId\":7,\"gpus\":1,\"priority\":-3,\"timeLimitSet\":true,\"timeLimit\":\"PT5M\",\"envSet\":{\"B\":\"2\"},"
            + "\"envUnset\":[\"A\"]," + AT + "}");
    m.put(new QueuePaused(T), "{" + AT + "}");
    m.put(new QueueResumed(T), "{" + AT + "}");
    m.put(new GroupHeld("g", "why", true, T), "{\"group\":\"g\",\"reason\":\"why\",\"automatic\":true," + AT + "}");
    m.put(new GroupReleased("g", T), "{\"group\":\"g\"," + AT + "}");
    m.put(new JobsRemoved(List.of(1L, 2L), T), "{\"jobIds\":[1,2]," + AT + "}");
    m.put(new JobIdsSkipped(46, "why", T), "{\"nextId\":46,\"reason\":\"why\"," + AT + "}");
    m.put(new GroupLimitSet("g", 4, T), "{\"group\":\"g\",\"maxRunning\":4," + AT + "}");
    m.put(new GpuDrained("GPU-a", "why", T), "{\"uuid\":\"GPU-a\",\"reason\":\"why\"," + AT + "}");
    m.put(new GpuResumed("GPU-a", T), "{\"uuid\":\"GPU-a\"," + AT + "}");
    m.put(new JobIdleNoted(7, T, T), "{\"jobId\":7,\"since\":\"2026-11-29T10:00:00.123456789Z\"," + AT + "}");
    m.put(new JobsHeld(List.of(7L), true, T), "{\"jobIds\":[7],\"held\":true," + AT + "}");
    m.put(new GroupPerGpuSet("g", 4, T), "{\"group\":\"g\",\"perGpu\":4," + AT + "}");
    m.put(new JobOverShare(7, "GPU-a", 0, 30000, 19074, T),
        "{\"jobId\":7,\"uuid\":\"GPU-a\",\"index\":0,\"usedMiB\":30000,\"declaredMiB\":19074," + AT + "}");
    m.put(new JobSentToCluster(7, "4711_3", T), "{\"jobId\":7,\"clusterId\":\"4711_3\"," + AT + "}");
    m.put(new JobClusterStarted(7, "node1", T), "{\"jobId\":7,\"node\":\"node1\"," + AT + "}");
    m.put(new ClusterUnreachable("a100", "why", T), "{\"profile\":\"a100\",\"reason\":\"why\"," + AT + "}");
    m.put(new ClusterReachable("a100", T), "{\"profile\":\"a100\"," + AT + "}");
    return m;
  }

  @Test
  void everyStoredEventTypeReadsBackFromItsRecordedJsonAndIsWrittenAsIt() throws Exception {
    for (Map.Entry<LedgerEvent, String> e : recorded().entrySet()) {
      LedgerEvent sample = e.getKey();
      Serializer s = SER.findSerializerFor(sample);
      String manifest = ((SerializerWithStringManifest) s).manifest(sample);
      Object back = SER.deserialize(e.getValue().getBytes(StandardCharsets.UTF_8), s.identifier(), manifest).get();
      assertEquals(sample, back, sample.getClass().getSimpleName() + " from its recorded JSON");
      String written = new String(SER.serialize(sample).get(), StandardCharsets.UTF_8);
      assertEquals(TREE.readTree(e.getValue()), TREE.readTree(written), sample.getClass().getSimpleName() + " as written");
    }
  }

  @Test
  void aSubmissionStoredBeforeJobsCouldBeResumedReadsBackWithNoResume() throws Exception {
    String old = "{\"jobId\":7,\"spec\":{\"argv\":[\"x\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":1,\"name\":null,"
        + "\"group\":null,\"key\":null,\"after\":[],\"retries\":0,\"timeLimit\":null,\"priority\":0,\"begin\":null},"
        + "\"tag\":\"t\",\"logPath\":\"/l\",\"retryOf\":null,\"waitsFor\":[]," + AT + "}";
    JobSubmitted sample = new JobSubmitted(7, new JobSpec(List.of("x"), "/w", Map.of(), 1, null, null, null), "t", "/l", null, T);
    Serializer s = SER.findSerializerFor(sample);
    String manifest = ((SerializerWithStringManifest) s).manifest(sample);
    JobSubmitted back = (JobSubmitted) SER.deserialize(old.getBytes(StandardCharsets.UTF_8), s.identifier(), manifest).get();
    assertEquals(sample, back);
    assertEquals(null, back.spec().resumeArg());
    assertEquals(false, back.spec().resumes());
  }

  @Test
  void aSubmissionStoredBeforeJobsCouldAskForMemoryOrATypeReadsBackAsAnyGpu() throws Exception {
    String old = "{\"jobId\":7,\"spec\":{\"argv\":[\"x\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":1,\"name\":null,"
        + "\"group\":null,\"key\":null,\"after\":[],\"retries\":0,\"timeLimit\":null,\"priority\":0,\"begin\":null,"
        + "\"resumeArg\":null,\"resumeFrom\":null,\"cluster\":null},"
        + "\"tag\":\"t\",\"logPath\":\"/l\",\"retryOf\":null,\"waitsFor\":[]," + AT + "}";
    JobSubmitted sample = new JobSubmitted(7, new JobSpec(List.of("x"), "/w", Map.of(), 1, null, null, null), "t", "/l", null, T);
    Serializer s = SER.findSerializerFor(sample);
    String manifest = ((SerializerWithStringManifest) s).manifest(sample);
    JobSubmitted back = (JobSubmitted) SER.deserialize(old.getBytes(StandardCharsets.UTF_8), s.identifier(), manifest).get();
    assertEquals(sample, back);
    assertNull(back.spec().gpuNeed(), "no need: any GPU");
  }

  @Test
  void aNeedStoredBeforeJobsCouldShareAGpuReadsBackAsExclusive() throws Exception {
    String old = "{\"jobId\":7,\"spec\":{\"argv\":[\"x\"],\"cwd\":\"/w\",\"env\":{},\"gpus\":1,\"name\":null,"
        + "\"group\":null,\"key\":null,\"after\":[],\"retries\":0,\"timeLimit\":null,\"priority\":0,\"begin\":null,"
        + "\"resumeArg\":null,\"resumeFrom\":null,\"cluster\":null,\"gpuNeed\":{\"vramMiB\":38147,\"types\":[\"H100\"]}},"
        + "\"tag\":\"t\",\"logPath\":\"/l\",\"retryOf\":null,\"waitsFor\":[]," + AT + "}";
    JobSubmitted sample = new JobSubmitted(7, new JobSpec(List.of("x"), "/w", Map.of(), 1, null, null, null)
        .withGpuNeed(new GpuNeed(38147, List.of("H100"))), "t", "/l", null, T);
    Serializer s = SER.findSerializerFor(sample);
    String manifest = ((SerializerWithStringManifest) s).manifest(sample);
    JobSubmitted back = (JobSubmitted) SER.deserialize(old.getBytes(StandardCharsets.UTF_8), s.identifier(), manifest).get();
    assertEquals(sample, back);
    assertFalse(back.spec().gpuNeed().share(), "exclusive");
    assertEquals(0, back.spec().gpuNeed().perGpu());
  }

  @Test
  void everyEventTypeHasItsRecordedJson() {
    Set<String> recorded = recorded().keySet().stream().map(e -> e.getClass().getSimpleName()).collect(Collectors.toSet());
    Set<String> all = types(LedgerEvent.class);
    assertEquals(all, recorded, "event types without a recorded JSON here");
  }

  private static Set<String> types(Class<?> sealed) {
    Set<String> out = new java.util.TreeSet<>();
    for (Class<?> c : sealed.getPermittedSubclasses()) {
      if (c.isSealed()) out.addAll(types(c));
      else out.add(c.getSimpleName());
    }
    return out;
  }
}
