package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.WaitReason;
import dev.gq.core.job.WaitReason.GpuBlock;
import dev.gq.core.job.WaitReason.GpuHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A job's {@code wait_reason} in {@code --json}: the reason's {@code code}, the {@code brief} and
 * {@code text} that {@code gq ps} and {@code gq show} print, and the facts the decision rested on,
 * named per kind (docs/schemas/show.schema.json lists them). Memory in bytes, durations in seconds,
 * times as ISO-8601 UTC; a reason that rests on another nests it whole.
 */
final class WaitJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private WaitJson() {}

  static ObjectNode of(WaitReason r) {
    ObjectNode n = NODES.objectNode();
    n.put("code", r.code().key());
    n.put("brief", r.brief());
    n.put("text", r.text());
    facts(n, r);
    return n;
  }

  private static void facts(ObjectNode n, WaitReason r) {
    switch (r) {
      case WaitReason.Held h -> { }
      case WaitReason.QueueHeld q -> { }
      case WaitReason.GroupHeld g -> n.put("group", g.group()).put("hold_reason", g.why());
      case WaitReason.After a -> n.put("job_id", a.job()).put("ok_only", a.okOnly());
      case WaitReason.AfterFailed a -> n.put("job_id", a.job()).put("ended", a.ended().name());
      case WaitReason.AfterPreempted a -> n.put("job_id", a.job());
      case WaitReason.Begins b -> n.put("begin_time", time(b.begin()));
      case WaitReason.GroupAtMax g -> n.put("group", g.group()).put("max_running", g.maxRunning());
      case WaitReason.CpuJobsAtMax c -> { }
      case WaitReason.NoGpuReading x -> { }
      case WaitReason.GpusBusy b -> holders(n.put("gpus_wanted", b.wanted()).put("gpus_free", b.free()), b.busy());
      case WaitReason.FewerFree f -> n.put("gpus_wanted", f.wanted());
      case WaitReason.NoGpuFits f -> need(n, f.wanted(), f.need());
      case WaitReason.TooFewFit t -> indices(need(n, t.wanted(), t.need()).putArray("fitting_gpus"), t.fitting());
      case WaitReason.FittingGpusBusy f -> {
        indices(need(n, f.wanted(), f.need()).putArray("fitting_gpus"), f.fitting());
        holders(n.put("gpus_free", f.free()), f.busy());
      }
      case WaitReason.SharedGpusFull s -> {
        ArrayNode a = need(n, s.wanted(), s.need()).putArray("blocked_gpus");
        s.blocks().forEach(b -> a.add(block(b)));
      }
      case WaitReason.Gathering g -> n.put("gather_after_seconds", seconds(g.after())).set("gpus", of(g.gpus()));
      case WaitReason.GatheringFor g -> indices(n.put("job_id", g.job()).put("gpus_wanted", g.wanted())
          .put("gather_after_seconds", seconds(g.after())).putArray("kept_free_gpus"), g.keptFree());
      case WaitReason.FailFastCheck f -> n.put("group", f.group()).put("open_jobs", f.open());
      case WaitReason.BookedGpu b -> n.set("booking", booking(b));
      case WaitReason.Booked b -> n.put("gpu_index", b.gpuIndex()).<ObjectNode>set("booking", booking(b.booking()))
          .set("behind", of(b.behind()));
      case WaitReason.InTurn t -> {
        facts(n, t.reason());
        ArrayNode a = n.putArray("turn_gpus");
        t.gpus().forEach(g -> a.addObject().put("index", g.index()).put("uuid", g.uuid()).put("seconds_left", g.secondsLeft()));
      }
      case WaitReason.UserLimit u -> n.put("user", u.user()).put("gpus_held", u.held()).put("max_gpus_per_user", u.allowed());
      case WaitReason.FairShare f -> {
        n.put("user", f.user()).put("gpus_held", f.held()).put("shared_gpus", f.sharedGpus()).put("fair_share", f.share());
        ArrayNode a = n.putArray("waiting_users");
        f.waiting().forEach(w -> a.addObject().put("user", w.user()).put("gpus_wanted", w.gpus()));
        n.put("turn_seconds", seconds(f.turn()));
      }
      case WaitReason.StartFailed s ->
          n.put("failures", s.failures()).put("last_failure", s.last()).put("retry_in_seconds", seconds(s.left()));
      case WaitReason.ToSlurm t -> { }
      case WaitReason.SlurmQueued s -> n.put("cluster_job_id", s.clusterJob());
    }
  }

  /** The GPUs wanted and what each must be: {@code vram_mib} (null: any), {@code gpu_types}, {@code share}, {@code per_gpu}. */
  private static ObjectNode need(ObjectNode n, int wanted, GpuNeed need) {
    n.put("gpus_wanted", wanted);
    ObjectNode o = n.putObject("need");
    o.put("vram_mib", need.vramMiB() > 0 ? need.vramMiB() : null);
    need.types().forEach(o.putArray("gpu_types")::add);
    o.put("share", need.share()).put("per_gpu", need.perGpu() > 0 ? need.perGpu() : null);
    return n;
  }

  private static void holders(ObjectNode n, List<GpuHolder> busy) {
    ArrayNode a = n.putArray("busy_gpus");
    for (GpuHolder g : busy) a.add(holder(g));
  }

  /** What keeps one GPU: its index and state, the job on it (or the shared ones), an outside holder, other gq's shares. */
  private static ObjectNode holder(GpuHolder g) {
    ObjectNode o = NODES.objectNode().put("index", g.index()).put("state", g.state().name()).put("job_id", g.job());
    g.jobs().forEach(o.putArray("shared_job_ids")::add);
    o.put("held_by", g.heldBy());
    g.others().forEach(o.putArray("other_holders")::add);
    return o;
  }

  /** Why a shared job may not join one GPU: {@code why} names the case, the other fields its facts. */
  private static ObjectNode block(GpuBlock b) {
    ObjectNode o = NODES.objectNode().put("index", b.gpu());
    switch (b) {
      case GpuBlock.Unfit u -> o.put("why", "unfit");
      case GpuBlock.Taken t -> o.put("why", "taken").put("detail", t.detail()).set("holder", holder(t.holder()));
      case GpuBlock.OverShare s -> o.put("why", "over_share").put("job_id", s.job()).put("used_memory", s.usedMiB() << 20)
          .put("declared_memory", s.declaredMiB() << 20);
      case GpuBlock.AtCap c -> o.put("why", "at_cap").put("shared_jobs", c.count()).put("per_gpu", c.cap());
      case GpuBlock.NoRoom r -> o.put("why", "no_room").put("free_memory", Math.max(0, r.leftMiB()) << 20);
    }
    return o;
  }

  private static ObjectNode booking(WaitReason.BookedGpu b) {
    return NODES.objectNode().put("gpu_uuid", b.gpu()).put("booked_by", b.user()).put("start", time(b.start()))
        .put("end", time(b.end())).put("in_window", b.inWindow());
  }

  private static void indices(ArrayNode a, List<Integer> gpus) {
    gpus.forEach(a::add);
  }

  private static long seconds(Duration d) {
    return d.toSeconds();
  }

  /** An instant as --json writes every time (ISO-8601, UTC); null for none. */
  private static String time(Instant t) {
    return t == null ? null : t.toString();
  }
}
