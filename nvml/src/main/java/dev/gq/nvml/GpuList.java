package dev.gq.nvml;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.MemoryText;
import java.io.PrintStream;

/**
 * A small command that prints what the GPU probe sees: one line per device (index, UUID, name,
 * memory), then its compute processes, or the error. Uses fake GPUs when GQ_FAKE_NVML is set, as
 * the daemon does. Exits 0 when every device was read, 1 when the reading or a device failed.
 * Run on a GPU machine to check the NVML binding against the real driver.
 */
public final class GpuList {


  private GpuList() {}

  public static void main(String[] args) {
    int status;
    try (GpuProbe probe = GpuProbes.fromEnvironment(System.getenv())) {
      status = run(probe, System.out, System.err);
    }
    System.exit(status);
  }

  /** Prints one reading of {@code probe}; returns the exit status. */
  public static int run(GpuProbe probe, PrintStream out, PrintStream err) {
    GpuReading reading = probe.read();
    String description = probe.describe();
    if (!description.equals(reading.error())) out.println("probe: " + description);
    if (!reading.ok()) {
      err.println("error: " + reading.error());
      return 1;
    }
    out.println("devices: " + reading.devices().size());
    boolean allRead = true;
    for (DeviceReading device : reading.devices()) {
      printDevice(device, out);
      allRead &= device.error() == null;
    }
    if (!allRead) err.println("error: some devices could not be read");
    return allRead ? 0 : 1;
  }

  private static void printDevice(DeviceReading d, PrintStream out) {
    if (d.error() != null) {
      out.printf("GPU %d  %s  error: %s%s%n", d.index(), d.uuid(), d.error(), d.health().lost() ? " (lost)" : "");
      return;
    }
    out.printf("GPU %d  %s  %s  memory %s used of %s%n", d.index(), d.uuid(), d.name(),
        MemoryText.words(MemoryText.mib(d.usedBytes())), MemoryText.words(MemoryText.mib(d.totalBytes())));
    var f = d.figures();
    if (!f.equals(GpuFigures.NONE)) out.printf("  util %s%%  memory bus %s%%  %s C  %s W of %s W%n", figure(f.utilPercent()),
        figure(f.memoryUtilPercent()), figure(f.temperatureC()), figure(f.powerWatts()), figure(f.powerLimitWatts()));
    var h = d.health();
    if (!h.equals(GpuHealth.NONE)) out.printf("  health: Xids %s, uncorrectable ECC %s, retired pages pending %s, row remap failed %s%n",
        h.xids(), h.eccUncorrected() == null ? "not reported" : h.eccUncorrected(), h.retiredPagesPending(),
        h.remapFailed());
    if (d.processes().isEmpty()) out.println("  no compute processes");
    for (DeviceReading.GpuProcess p : d.processes()) {
      String used = p.usedBytes() < 0 ? "memory not reported" : MemoryText.words(MemoryText.mib(p.usedBytes()));
      out.printf("  pid %d  %s%n", p.pid(), used);
    }
  }

  private static String figure(Integer value) {
    return value == null ? "-" : value.toString();
  }
}
