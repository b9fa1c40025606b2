package dev.gq.nvml;

import dev.gq.core.gpu.GpuProbe;
import java.nio.file.Path;
import java.util.Map;

/**
 * Chooses the {@link GpuProbe} for the daemon: the file-driven {@link FakeGpuProbe} when
 * {@code GQ_FAKE_NVML} names a directory, else NVML ({@link NvmlGpuProbe}). Creating either
 * touches neither the library nor the files; the first {@code read()} does.
 */
public final class GpuProbes {

  /** The variable that switches to fake GPUs. */
  public static final String FAKE_NVML_VARIABLE = "GQ_FAKE_NVML";

  private GpuProbes() {}

  public static GpuProbe fromEnvironment(Map<String, String> env) {
    String fakeDir = env.get(FAKE_NVML_VARIABLE);
    if (fakeDir != null && !fakeDir.isBlank()) {
      return new FakeGpuProbe(Path.of(fakeDir).toAbsolutePath());
    }
    return new NvmlGpuProbe();
  }
}
