package dev.gq.nvml;

import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import java.util.ArrayList;
import java.util.List;

/**
 * The fake GPUs' figures and health, from the texts of {@code <dir>/figures/<uuid>} and
 * {@code <dir>/health/<uuid>}. Figures are {@code key=value} words, any of {@code util mem_util temp
 * power power_limit} (percent, °C, watts); a key not given is unknown. Health is one problem a line:
 * {@code xid N} (a critical Xid error; may repeat), {@code ecc N} (uncorrectable ECC errors),
 * {@code retired_pending}, {@code remap_failed}, {@code lost} (fell off the bus); {@code #} starts a
 * comment. A bad word is an {@link IllegalArgumentException} naming the file. Pure.
 */
final class FakeSignals {
  private FakeSignals() {}

  static GpuFigures figures(String text, String file) {
    Integer util = null, memUtil = null, temp = null, power = null, limit = null;
    for (String word : strip(text).split("\\s+")) {
      if (word.isEmpty()) continue;
      int eq = word.indexOf('=');
      if (eq < 0) throw bad(file, word, "util=N mem_util=N temp=N power=N power_limit=N");
      int value = number(word.substring(eq + 1), file, word);
      switch (word.substring(0, eq)) {
        case "util" -> util = value;
        case "mem_util" -> memUtil = value;
        case "temp" -> temp = value;
        case "power" -> power = value;
        case "power_limit" -> limit = value;
        default -> throw bad(file, word, "util=N mem_util=N temp=N power=N power_limit=N");
      }
    }
    return new GpuFigures(util, memUtil, temp, power, limit);
  }

  static GpuHealth health(String text, String file) {
    List<Integer> xids = new ArrayList<>();
    Long ecc = null;
    boolean retired = false, remap = false, lost = false;
    for (String raw : text.split("\n")) {
      String line = strip(raw);
      if (line.isEmpty()) continue;
      String[] w = line.split("\\s+");
      switch (w[0]) {
        case "xid" -> xids.add(number(arg(w, file, line), file, line));
        case "ecc" -> ecc = (long) number(arg(w, file, line), file, line);
        case "retired_pending" -> retired = true;
        case "remap_failed" -> remap = true;
        case "lost" -> lost = true;
        default -> throw bad(file, line, "xid N, ecc N, retired_pending, remap_failed or lost, one a line");
      }
    }
    return new GpuHealth(xids, ecc, retired, remap, lost);
  }

  private static String strip(String line) {
    int hash = line.indexOf('#');
    return (hash >= 0 ? line.substring(0, hash) : line).strip();
  }

  private static String arg(String[] words, String file, String line) {
    if (words.length != 2) throw bad(file, line, words[0] + " N");
    return words[1];
  }

  private static int number(String text, String file, String what) {
    try {
      int n = Integer.parseInt(text);
      if (n >= 0) return n;
    } catch (NumberFormatException e) {
      // said below
    }
    throw bad(file, what, "a whole number not below 0");
  }

  private static IllegalArgumentException bad(String file, String what, String expected) {
    return new IllegalArgumentException("malformed fake GPU file " + file + ": '" + what + "'; expected " + expected);
  }
}
