package dev.gq.core.gpu;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How gq writes an amount of GPU memory, on every surface (gq gpu, gq top, gq show, wait reasons,
 * events, notices): in GiB (1 GiB = 1024 MiB, the MiB NVML counts in) with one decimal, written
 * "79.6G" where space is short (tables, gq top, the lines under a GPU) and "79.6 GiB" in sentences;
 * an amount under 1000 MiB in whole MiB ("512M", "512 MiB"), so that a small one never reads as 0.0
 * and none takes four digits.
 * Used of total is both in GiB ("0.0/79.6G").
 * Sizes typed by users are read elsewhere ({@code GpuNeed.parseMiB}: G as cards are labelled); this
 * class only writes. JSON keeps its byte and MiB fields.
 */
public final class MemoryText {
  private static final long MIB_PER_GIB = 1024;
  /** From here up, GiB: "1.0G" rather than "1000M". */
  private static final long GIB_FROM = 1000;

  private MemoryText() {}

  /** {@code mib} where space is short: "79.6G", "512M". */
  public static String brief(long mib) {
    return mib < GIB_FROM ? mib + "M" : gib(mib) + "G";
  }

  /** {@code mib} in a sentence: "79.6 GiB", "512 MiB". */
  public static String words(long mib) {
    return mib < GIB_FROM ? mib + " MiB" : gib(mib) + " GiB";
  }

  /** Used of total where space is short: "59.8/79.6G". */
  public static String usedOfTotal(long usedMiB, long totalMiB) {
    return gib(usedMiB) + "/" + brief(totalMiB);
  }

  /** The whole MiB in {@code bytes} (NVML's unit). */
  public static long mib(long bytes) {
    return bytes >> 20;
  }

  /**
   * A {@code --vram} value that asks at most {@code mib}, in the unit shown: "79.6GiB" for a card of
   * 81,559 MiB (rounded down, so the card it names always fits it).
   */
  public static String atMostOption(long mib) {
    BigDecimal g = BigDecimal.valueOf(mib).divide(BigDecimal.valueOf(MIB_PER_GIB), 1, RoundingMode.FLOOR);
    return g.toPlainString() + "GiB";
  }

  private static String gib(long mib) {
    return BigDecimal.valueOf(mib).divide(BigDecimal.valueOf(MIB_PER_GIB), 1, RoundingMode.HALF_UP).toPlainString();
  }
}
