package dev.gq.core.gpu;

import java.util.List;

/**
 * One GPU as `gq gpu` shows it: the classification of one device reading against the
 * reservations. {@code ownerJobId} is set whenever a job holds the GPU, even when UNKNOWN;
 * {@code detail} says why a GPU is UNKNOWN or EXTERNAL. Memory in bytes.
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
    String detail) {

  public GpuStatus {
    processes = List.copyOf(processes);
  }
}
