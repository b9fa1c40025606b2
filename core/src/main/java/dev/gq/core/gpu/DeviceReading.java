package dev.gq.core.gpu;

import java.util.List;

/**
 * What the probe saw on one device. {@code error} set means this device could not be read
 * (its processes are then unknown and the device is UNKNOWN); the other fields are best effort.
 * Memory is in bytes; a process's {@code usedBytes} is -1 when the driver does not say.
 * {@code figures} are utilisation, temperature and power, each null when not given; {@code health} is
 * what the driver says of the device's health ({@link GpuHealth#NONE} when it says nothing).
 */
public record DeviceReading(
    int index,
    String uuid,
    String name,
    long totalBytes,
    long usedBytes,
    List<GpuProcess> processes,
    String error,
    GpuFigures figures,
    GpuHealth health) {

  public DeviceReading {
    processes = processes == null ? List.of() : List.copyOf(processes);
    figures = figures == null ? GpuFigures.NONE : figures;
    health = health == null ? GpuHealth.NONE : health;
  }

  /** A reading with figures and nothing said of health. */
  public DeviceReading(int index, String uuid, String name, long totalBytes, long usedBytes,
      List<GpuProcess> processes, String error, GpuFigures figures) {
    this(index, uuid, name, totalBytes, usedBytes, processes, error, figures, GpuHealth.NONE);
  }

  /** A reading without figures. */
  public DeviceReading(int index, String uuid, String name, long totalBytes, long usedBytes,
      List<GpuProcess> processes, String error) {
    this(index, uuid, name, totalBytes, usedBytes, processes, error, GpuFigures.NONE);
  }

  public static DeviceReading failed(int index, String uuid, String error) {
    return new DeviceReading(index, uuid, "unknown", 0, 0, List.of(), error);
  }

  /** A device that could not be read, with what is known of its health (a GPU that fell off the bus). */
  public static DeviceReading failed(int index, String uuid, String error, GpuHealth health) {
    return new DeviceReading(index, uuid, "unknown", 0, 0, List.of(), error, GpuFigures.NONE, health);
  }

  /** A compute process on a device. */
  public record GpuProcess(long pid, long usedBytes) {}
}
