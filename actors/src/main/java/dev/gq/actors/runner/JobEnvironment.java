package dev.gq.actors.runner;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The environment a job runs with: the stored submit-time environment, then gq's variables on top:
 * CUDA_VISIBLE_DEVICES (NVML indices ascending; empty for a CPU-only job, so it sees no GPU),
 * CUDA_DEVICE_ORDER=PCI_BUS_ID (so CUDA numbers GPUs as NVML does), GQ_JOB_ID, GQ_GPU_UUIDS,
 * GQ_GROUP, GQ_KEY, GQ_JOB_TAG (which marks every process of the job) and GQ_PROGRESS_FILE (where
 * the job may write {@code current total} for {@code gq eta}: {@code run/ID.progress} in the data
 * directory, beside its exit record), and GQ_VRAM (the memory {@code --vram} asked of each GPU, in
 * MiB; for a job shared by {@code --per-gpu K} alone, its share of the smallest of its cards; unset
 * otherwise).
 */
public final class JobEnvironment {
  /** The variable the shim gives a job's processes, which every process it starts inherits. */
  static final String TAG = "GQ_JOB_TAG";
  /** The daemon's pid: never a job's process, though one started from inside a job carries its tag. */
  static final long SELF = ProcessHandle.current().pid();

  private JobEnvironment() {}

  /** The environment of job {@code j}, whose progress file is {@code progressFile}. */
  public static Map<String, String> of(Job j, Path progressFile) {
    return of(j, progressFile, null);
  }

  /** As above; {@code shareMiB}, when not null, is the share GQ_VRAM tells a job without --vram. */
  public static Map<String, String> of(Job j, Path progressFile, Long shareMiB) {
    Map<String, String> env = new HashMap<>(j.spec().env());
    List<GpuSlot> gpus = j.gpus().stream().sorted(Comparator.comparingInt(GpuSlot::index)).toList();
    env.put("CUDA_VISIBLE_DEVICES", gpus.stream().map(g -> String.valueOf(g.index())).collect(Collectors.joining(",")));
    env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
    env.put("GQ_JOB_ID", String.valueOf(j.id()));
    env.put("GQ_GPU_UUIDS", gpus.stream().map(GpuSlot::uuid).collect(Collectors.joining(",")));
    env.put(TAG, j.tag());
    env.put("GQ_PROGRESS_FILE", progressFile.toString());
    if (j.spec().group() != null) env.put("GQ_GROUP", j.spec().group());
    else env.remove("GQ_GROUP");
    if (j.spec().key() != null) env.put("GQ_KEY", j.spec().key());
    else env.remove("GQ_KEY");
    var need = j.spec().gpuNeed();
    if (need != null && need.vramMiB() > 0) env.put("GQ_VRAM", String.valueOf(need.vramMiB()));
    else if (shareMiB != null) env.put("GQ_VRAM", String.valueOf(shareMiB));
    else env.remove("GQ_VRAM");
    return env;
  }
}
