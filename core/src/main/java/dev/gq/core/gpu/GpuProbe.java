package dev.gq.core.gpu;

/**
 * Port to whatever reports the GPUs and their compute processes: NVML, or the file-driven fake.
 * A probe never throws for an NVML failure: it returns a reading that carries the error, so the
 * classifier can fail closed. Calls block (driver calls, file reads) and run off the actor threads.
 */
public interface GpuProbe extends AutoCloseable {

  /** Reads every device and its compute processes now. */
  GpuReading read();

  /** A short description for `gq gpu` and `gq daemon status`, e.g. "NVML 12.550.54" or "fake GPUs in DIR". */
  String describe();

  /** True when the GPUs are simulated (GQ_FAKE_NVML), so the user is told plainly. */
  boolean fake();

  @Override
  default void close() {}
}
