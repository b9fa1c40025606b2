package dev.gq.core.gpu;

import java.util.List;

/**
 * What a reading says of one device's health: the critical Xid errors the driver reported since the
 * last reading ({@code xids}, in order, application Xids included: {@link dev.gq.core.health.Unwell}
 * decides which count), the volatile count of uncorrectable ECC errors (null when not given), whether
 * retired pages wait for a reset, whether a row remapping failed, and whether the GPU fell off the bus
 * (NVML_ERROR_GPU_IS_LOST). A flag the device does not report is false.
 */
public record GpuHealth(List<Integer> xids, Long eccUncorrected, boolean retiredPagesPending, boolean remapFailed,
    boolean lost) {

  /** Nothing reported. */
  public static final GpuHealth NONE = new GpuHealth(List.of(), null, false, false, false);

  public GpuHealth {
    xids = xids == null ? List.of() : List.copyOf(xids);
  }

  /** A device that fell off the bus: nothing else could be read. */
  public static GpuHealth gone() {
    return new GpuHealth(List.of(), null, false, false, true);
  }
}
