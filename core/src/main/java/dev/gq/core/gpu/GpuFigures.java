package dev.gq.core.gpu;

/**
 * The figures a reading gives of one device besides its memory and processes: utilisation (of the
 * compute engines and of the memory bus, in percent over the driver's last sample period),
 * temperature and power. Each is null when the device or its driver does not give it; a view shows
 * it blank.
 */
public record GpuFigures(
    Integer utilPercent,
    Integer memoryUtilPercent,
    Integer temperatureC,
    Integer powerWatts,
    Integer powerLimitWatts) {

  /** A reading without figures: every one unknown. */
  public static final GpuFigures NONE = new GpuFigures(null, null, null, null, null);
}
