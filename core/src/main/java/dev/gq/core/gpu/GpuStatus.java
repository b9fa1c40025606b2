package dev.gq.core.gpu;

import java.util.List;

/**
 * One GPU as `gq gpu` shows it: the classification of one device reading against the
 * reservations. {@code ownerJobId} is set whenever a job holds the GPU, even when UNKNOWN;
 * {@code detail} says why a GPU is UNKNOWN or EXTERNAL; {@code heldBy} names the job of another gq
 * on the machine (or of this one, ended) whose machine-wide lease holds it ("alice's job 12").
 * Memory in bytes. {@code shares} lists the shared jobs of a SHARED GPU (empty otherwise);
 * {@code ownerJobId} is then the first of them.
 */
public record GpuStatus(
    int index,
    String uuid,
    String name,
    GpuState state,
    Long ownerJobId,
    List<DeviceReading.GpuProcess> processes,
    long totalBytes,
    long usedBytes,
    String detail,
    String heldBy,
    List<Share> shares) {

  public GpuStatus {
    processes = List.copyOf(processes);
    shares = shares == null ? List.of() : List.copyOf(shares);
  }

  /**
   * One shared job on a GPU: the memory it asked for ({@code vramMiB}, 0: it counts with {@code
   * perGpu} instead), the cap on shared jobs per GPU it asked for ({@code perGpu}, 0: none), and the
   * memory its processes on this GPU use now ({@code usedMiB}, -1 when the driver does not say).
   */
  public record Share(long jobId, long vramMiB, int perGpu, long usedMiB) {
    /** What it declared of a card of {@code totalMiB} ({@link dev.gq.core.job.GpuNeed#declaredMiB}). */
    public long declaredMiB(long totalMiB, long headroomMiB) {
      return new dev.gq.core.job.GpuNeed(vramMiB, List.of(), true, perGpu).declaredMiB(totalMiB, headroomMiB);
    }

    /** Whether the job uses more of a card of {@code totalMiB} than it declared. */
    public boolean over(long totalMiB, long headroomMiB) {
      return usedMiB > declaredMiB(totalMiB, headroomMiB);
    }
  }

  /** A GPU no job shares. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail, String heldBy) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, heldBy, List.of());
  }

  /** The sum of the memory its shared jobs declared, in MiB. */
  public long sharedMiB(long headroomMiB) {
    return shares.stream().mapToLong(s -> s.declaredMiB(totalMiB(), headroomMiB)).sum();
  }

  /** What is left for one more shared job, in MiB (below 0: over). */
  public long leftMiB(long headroomMiB) {
    return totalMiB() - headroomMiB - sharedMiB(headroomMiB);
  }

  /** The shared jobs whose processes use more than they declared. */
  public List<Share> overShares(long headroomMiB) {
    return shares.stream().filter(s -> s.over(totalMiB(), headroomMiB)).toList();
  }

  /** Its total memory in MiB. */
  public long totalMiB() {
    return totalBytes >> 20;
  }

  /** A GPU no other gq's lease holds. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, null);
  }
}
