package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonViewTest {

  private static List<String> names(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void jobFieldNamesAreTheContract() {
    ObjectNode n = JsonView.job(Jobs.job(5, JobState.RUNNING));
    assertEquals(List.of("id", "name", "state", "argv", "cwd", "requested_gpus", "submit_time", "start_time",
        "end_time", "pid", "pgid", "exit_code", "log_path", "failure_reason", "gpu_uuids", "gpu_indices", "group",
        "key", "retry_of", "after", "retries", "time_limit_seconds", "priority", "begin_time", "resume_arg", "resume_from", "adopted", "backend",
        "cluster_job_id", "vram_mib", "gpu_types", "share", "per_gpu", "idle_since", "unwell_gpus", "wait_reason"), names(n));
  }

  @Test
  void schedulingValues() {
    JobSpec spec = Jobs.spec("x").withAfter(List.of(new dev.gq.core.job.Dependency(7, true))).withRetries(2)
        .withTimeLimit(java.time.Duration.ofMinutes(90));
    ObjectNode n = JsonView.job(Jobs.job(1, JobState.WAITING, spec));
    assertEquals("[{\"job_id\":7,\"ok_only\":true}]", n.get("after").toString());
    assertEquals(2, n.get("retries").asInt());
    assertEquals(5400, n.get("time_limit_seconds").asLong());
    assertTrue(JsonView.job(Jobs.job(2, JobState.WAITING)).get("time_limit_seconds").isNull());
  }

  @Test
  void gpuFieldNamesAreTheContract() {
    GpuStatus g = new GpuStatus(0, "GPU-a", "H100", GpuState.EXTERNAL, null, List.of(new GpuProcess(9, 100)), 10, 5, "x");
    ObjectNode n = JsonView.gpu(g);
    assertEquals(List.of("index", "uuid", "name", "state", "owner_job_id", "processes", "total_memory", "used_memory",
        "detail", "held_by", "shares", "share_free_memory", "other_shares"), names(n));
    assertEquals(List.of("pid", "used_memory"), names(n.get("processes").get(0)));
  }

  @Test
  void aGpuOtherInstancesShareListsTheirSharesAndCountsThemInWhatIsLeft() {
    GpuStatus g = new GpuStatus(0, "GPU-a", "H100", GpuState.SHARED, null, List.of(), 81920L << 20, 0, null, "bob's job 3",
        List.of(), List.of(new GpuStatus.Other("bob's job 3", 20480)));
    ObjectNode n = JsonView.gpu(g, 1024);
    assertEquals("[{\"held_by\":\"bob's job 3\",\"declared_memory\":" + (20480L << 20) + "}]", n.get("other_shares").toString());
    assertEquals((81920L - 1024 - 20480) << 20, n.get("share_free_memory").asLong());
    assertEquals(0, n.get("shares").size());
  }

  @Test
  void jobValues() {
    JobSpec spec = new JobSpec(List.of("python", "t.py"), "/w", Map.of("HF_TOKEN", "secret"), 2, null, "g", "k");
    Job base = Jobs.job(5, JobState.FAILED, spec);
    Job job = new Job(5, spec, JobState.FAILED, base.submitTime(), base.startTime(), base.endTime(),
        List.of(new GpuSlot("GPU-b", 3), new GpuSlot("GPU-a", 1)), base.identity(), 3, "/l/5.log", "boom", "t", 2L);
    ObjectNode n = JsonView.job(job);
    assertEquals("t.py", n.get("argv").get(1).asText());
    assertEquals("python", n.get("name").asText());
    assertEquals("2025-03-01T10:00:00Z", n.get("submit_time").asText());
    assertEquals("2025-03-01T10:01:00Z", n.get("end_time").asText());
    assertEquals(1005, n.get("pid").asLong());
    assertEquals("[\"GPU-a\",\"GPU-b\"]", n.get("gpu_uuids").toString());
    assertEquals("[1,3]", n.get("gpu_indices").toString());
    assertEquals(2, n.get("retry_of").asLong());
    assertFalse(n.toString().contains("secret"), "the environment is never written");
  }

  @Test
  void unknownValuesAreNull() {
    ObjectNode n = JsonView.job(Jobs.job(1, JobState.WAITING));
    for (String f : List.of("start_time", "end_time", "pid", "pgid", "exit_code", "failure_reason", "group", "key", "retry_of")) {
      assertTrue(n.get(f).isNull(), f);
    }
  }

  @Test
  void unknownProcessMemoryIsNull() {
    GpuStatus g = new GpuStatus(0, "GPU-a", "H100", GpuState.UNKNOWN, 4L, List.of(new GpuProcess(9, -1)), 10, 5, null);
    assertTrue(JsonView.gpu(g).get("processes").get(0).get("used_memory").isNull());
  }

  @Test
  void prettyPrintsWithTwoSpacesLikeMostTools() {
    ObjectNode n = JsonView.object();
    n.put("a", 1);
    n.putArray("b").add("x").add("y");
    n.putArray("c");
    n.putObject("d");
    assertEquals("{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    \"y\"\n  ],\n  \"c\": [],\n  \"d\": {}\n}", JsonView.pretty(n));
  }
}
