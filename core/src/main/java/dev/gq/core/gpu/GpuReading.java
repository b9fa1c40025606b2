package dev.gq.core.gpu;

import java.time.Instant;
import java.util.List;

/**
 * One reading of all GPUs. When {@code error} is set the whole query failed (library missing,
 * driver gone) and {@code devices} is empty: every GPU gq knows of is then UNKNOWN.
 */
public record GpuReading(Instant at, List<DeviceReading> devices, String error) {

  public GpuReading {
    devices = List.copyOf(devices);
  }

  public static GpuReading failed(Instant at, String error) {
    return new GpuReading(at, List.of(), error);
  }

  public boolean ok() {
    return error == null;
  }
}
