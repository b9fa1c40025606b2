package dev.gq.core.gpu;

import java.util.List;

/**
 * One GPU as `gq gpu` shows it: the classification of one device reading against the
 * reservations. {@code ownerJobId} is set whenever a job holds the GPU, even when UNKNOWN;
 * {@code detail} says why a GPU is UNKNOWN or EXTERNAL; {@code heldBy} names the job of another gq
 * on the machine (or of this one, ended) whose machine-wide lease holds it ("alice's job 12").
 * Memory in bytes.
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
    String heldBy) {

  public GpuStatus {
    processes = List.copyOf(processes);
  }

  /** A GPU no other gq's lease holds. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, null);
  }
}
