package dev.gq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.GqApi;
import dev.gq.core.alloc.PlanRules;
import dev.gq.core.cluster.ClusterTarget;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} contract in one place: the field names of jobs and GPUs that scripts rely on
 * (they may only ever gain fields), times as ISO-8601 UTC or null, memory in bytes, pretty-printed
 * with an indent of two. A job's environment is never written.
 */
final class JsonView {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonView() {}

  /**
   * {@code gq show --json}: the job with {@code idle_since} (when its GPUs last did something, for a
   * job marked idle; else null), {@code unwell_gpus} (its GPUs drained as unwell, with the problem)
   * and {@code wait_reason} ({@code wait}: why it waits; null when it does not).
   */
  static ObjectNode shownJob(Job job, JobHints hints, WaitReason wait) {
    ObjectNode n = job(job, wait);
    Instant since = hints.idleFor(job) == null ? null : hints.idle().get(job.id());
    n.put("idle_since", since == null ? null : since.toString());
    ArrayNode unwell = n.putArray("unwell_gpus");
    job.gpus().stream().sorted(Comparator.comparingInt(GpuSlot::index)).forEach(g -> {
      String problem = job.state().holdsGpus() ? hints.unwell().get(g.uuid()) : null;
      if (problem == null) return;
      ObjectNode u = unwell.addObject();
      u.put("index", g.index());
      u.put("uuid", g.uuid());
      u.put("problem", problem);
    });
    return n;
  }

  /** The job object, with no wait reason. */
  static ObjectNode job(Job job) {
    return job(job, null);
  }

  /** The job object; {@code idle_since} null and {@code unwell_gpus} empty (see {@link #shownJob}). */
  static ObjectNode job(Job job, WaitReason wait) {
    ObjectNode n = NODES.objectNode();
    n.put("id", job.id());
    n.put("name", job.displayName());
    n.put("state", job.state().name());
    ArrayNode argv = n.putArray("argv");
    job.spec().argv().forEach(argv::add);
    n.put("cwd", job.spec().cwd());
    n.put("requested_gpus", job.spec().gpus());
    n.put("submit_time", time(job.submitTime()));
    n.put("start_time", time(job.startTime()));
    n.put("end_time", time(job.endTime()));
    n.put("pid", job.pid());
    n.put("pgid", job.identity() == null || job.adopted() ? null : job.identity().pgid());
    n.put("exit_code", job.exitCode());
    n.put("log_path", job.logPath());
    n.put("failure_reason", job.failureReason());
    putSlots(n, job.gpus());
    n.put("group", job.spec().group());
    n.put("key", job.spec().key());
    n.put("retry_of", job.retryOf());
    ArrayNode after = n.putArray("after");
    job.spec().after().forEach(d -> after.addObject().put("job_id", d.jobId()).put("ok_only", d.okOnly()));
    n.put("retries", job.spec().retries());
    n.put("time_limit_seconds", job.spec().timeLimit() == null ? null : job.spec().timeLimit().getSeconds());
    n.put("priority", job.spec().priority());
    n.put("begin_time", time(job.spec().begin()));
    n.put("resume_arg", job.spec().resumeArg());
    n.put("resume_from", job.spec().resumeFrom());
    n.put("adopted", job.adopted());
    n.put("backend", ClusterTarget.text(job.spec().cluster()));
    n.put("cluster_job_id", job.clusterId());
    var need = job.spec().gpuNeed();
    n.put("vram_mib", need == null || need.vramMiB() == 0 ? null : need.vramMiB());
    ArrayNode types = n.putArray("gpu_types");
    if (need != null) need.types().forEach(types::add);
    n.put("share", need != null && need.share());
    n.put("per_gpu", need == null || need.perGpu() == 0 ? null : need.perGpu());
    n.putNull("idle_since");
    n.putArray("unwell_gpus");
    n.set("wait_reason", wait == null || job.state() != JobState.WAITING ? NODES.nullNode() : WaitJson.of(wait));
    return n;
  }

  /** The GPUs a job holds or held, both lists ordered by index. */
  private static void putSlots(ObjectNode n, List<GpuSlot> gpus) {
    List<GpuSlot> slots = gpus.stream().sorted(Comparator.comparingInt(GpuSlot::index)).toList();
    ArrayNode uuids = n.putArray("gpu_uuids");
    slots.forEach(s -> uuids.add(s.uuid()));
    ArrayNode indices = n.putArray("gpu_indices");
    slots.forEach(s -> indices.add(s.index()));
  }

  static ObjectNode gpu(GpuStatus gpu) {
    return gpu(gpu, PlanRules.HEADROOM_MIB);
  }

  /**
   * One GPU; a SHARED one also lists its {@code shares} (each job's {@code job_id}, the memory it
   * declared of this card, its {@code per_gpu} cap or null, what its processes use here or null, and
   * whether that is {@code over} its declaration) and {@code share_free_memory}: what is left for
   * another shared job after the headroom; {@code other_shares} lists the shares other gq instances
   * hold on it ({@code held_by}, {@code declared_memory}).
   */
  static ObjectNode gpu(GpuStatus gpu, long headroomMiB) {
    ObjectNode n = NODES.objectNode();
    n.put("index", gpu.index());
    n.put("uuid", gpu.uuid());
    n.put("name", gpu.name());
    n.put("state", gpu.state().name());
    n.put("owner_job_id", gpu.ownerJobId());
    ArrayNode procs = n.putArray("processes");
    for (GpuProcess p : gpu.processes()) {
      ObjectNode pn = procs.addObject();
      pn.put("pid", p.pid());
      pn.put("used_memory", p.usedBytes() < 0 ? null : p.usedBytes());
    }
    n.put("total_memory", gpu.totalBytes());
    n.put("used_memory", gpu.usedBytes());
    n.put("detail", gpu.detail());
    n.put("held_by", gpu.heldBy());
    ArrayNode shares = n.putArray("shares");
    for (GpuStatus.Share s : gpu.shares()) {
      ObjectNode sn = shares.addObject();
      sn.put("job_id", s.jobId());
      sn.put("declared_memory", s.declaredMiB(gpu.totalMiB(), headroomMiB) << 20);
      sn.put("per_gpu", s.perGpu() == 0 ? null : s.perGpu());
      sn.put("used_memory", s.usedMiB() < 0 ? null : s.usedMiB() << 20);
      sn.put("over", s.over(gpu.totalMiB(), headroomMiB));
    }
    n.put("share_free_memory", gpu.shares().isEmpty() && gpu.others().isEmpty() ? null
        : Math.max(0, gpu.leftMiB(headroomMiB)) << 20);
    ArrayNode others = n.putArray("other_shares");
    for (GpuStatus.Other o : gpu.others()) {
      ObjectNode on = others.addObject();
      on.put("held_by", o.holder());
      on.put("declared_memory", o.mib() << 20);
    }
    return n;
  }

  static ArrayNode jobs(List<Job> jobs) {
    return jobs(jobs, Map.of());
  }

  /** The jobs, each waiting one with its reason in {@code waits}. */
  static ArrayNode jobs(List<Job> jobs, Map<Long, WaitReason> waits) {
    ArrayNode a = NODES.arrayNode();
    jobs.forEach(j -> a.add(job(j, waits.get(j.id()))));
    return a;
  }

  static ArrayNode gpus(List<GpuStatus> gpus) {
    return gpus(gpus, PlanRules.HEADROOM_MIB);
  }

  static ArrayNode gpus(List<GpuStatus> gpus, long headroomMiB) {
    ArrayNode a = NODES.arrayNode();
    gpus.forEach(g -> a.add(gpu(g, headroomMiB)));
    return a;
  }

  /** The GPUs with each one's figures (null when unknown) and, for a GPU drained as unwell, its problem. */
  static ArrayNode gpus(GqApi.GpuReport report) {
    ArrayNode a = NODES.arrayNode();
    for (GpuStatus g : report.gpus()) {
      ObjectNode n = gpu(g, report.shareHeadroomMiB());
      GpuFigures f = report.figures(g.uuid());
      n.put("util_percent", f.utilPercent());
      n.put("memory_util_percent", f.memoryUtilPercent());
      n.put("temperature_c", f.temperatureC());
      n.put("power_watts", f.powerWatts());
      n.put("power_limit_watts", f.powerLimitWatts());
      n.put("unwell", report.unwell().get(g.uuid()));
      a.add(n);
    }
    return a;
  }

  /** Writes a JSON array element by element, formatted exactly as {@link #pretty} formats a whole one. */
  static final class ArrayStream {
    private final PrintWriter out;
    private final StringBuilder text = new StringBuilder();
    /** {@code text}'s characters, handed to the writer without a string made of them for each job. */
    private char[] chars = new char[0];
    private boolean any;

    ArrayStream(PrintWriter out) {
      this.out = out;
    }

    void add(JsonNode n) {
      out.print(any ? ",\n" : "[\n");
      out.print("  " + pretty(n).replace("\n", "\n  "));
      any = true;
    }

    /** Adds {@code job} as {@link #job(Job, WaitReason)} has it, written straight to text ({@link JobJson}). */
    void add(Job job, WaitReason wait) {
      text.setLength(0);
      JobJson.element(text.append(any ? ",\n" : "[\n"), job, wait);
      if (chars.length < text.length()) chars = new char[text.length() * 2];
      text.getChars(0, text.length(), chars, 0);
      out.write(chars, 0, text.length());
      any = true;
    }

    void end() {
      out.println(any ? "\n]" : "[]");
    }
  }

  static ObjectNode object() {
    return NODES.objectNode();
  }

  /** The node as pretty-printed JSON text, without a trailing newline. */
  static String pretty(JsonNode node) {
    return PrettyJson.text(node);
  }

  static String time(Instant t) {
    return t == null ? null : t.toString();
  }
}
