package dev.gq.core.health;

import dev.gq.core.gpu.GpuHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which health reports make a GPU unwell, and the reason gq gives. Critical Xid errors count except
 * the application ones (13 graphics engine exception, 31 memory page fault, 43 GPU stopped processing,
 * 45 preemptive cleanup, 68 video processor exception): those tell that a program failed, not the GPU,
 * as NVIDIA's Kubernetes device plugin also treats them. Uncorrectable ECC errors, retired pages that
 * wait for a reset, a failed row remapping and a GPU that fell off the bus count too. A problem counts
 * when it arises: present now and not in the previous reading (for the ECC count: grown), so a GPU the
 * user gave back with {@code gq gpu resume} is not drained again for the same lasting condition. A
 * GPU drained for its health carries {@link #PREFIX} before the reason. Pure.
 */
public final class Unwell {
  /** The start of the drain reason of a GPU drained for its health. */
  public static final String PREFIX = "unwell: ";

  /** Xids that a program's own fault raises: the GPU stays well. */
  public static final Set<Integer> APPLICATION_XIDS = Set.of(13, 31, 43, 45, 68);

  private static final Map<Integer, String> XID_NAMES = Map.ofEntries(
      Map.entry(48, "double-bit ECC error"),
      Map.entry(61, "internal micro-controller breakpoint"),
      Map.entry(62, "internal micro-controller halt"),
      Map.entry(63, "ECC page retirement or row remapping recorded"),
      Map.entry(64, "ECC page retirement or row remapping failed"),
      Map.entry(74, "NVLink error"),
      Map.entry(79, "fell off the bus"),
      Map.entry(92, "high single-bit ECC error rate"),
      Map.entry(94, "contained ECC error"),
      Map.entry(95, "uncontained ECC error"),
      Map.entry(119, "GSP timeout"),
      Map.entry(120, "GSP error"),
      Map.entry(999, "unknown critical error"));

  private Unwell() {}

  /** Whether Xid {@code xid} says the GPU itself is unwell. */
  public static boolean critical(int xid) {
    return !APPLICATION_XIDS.contains(xid);
  }

  /** The reason for Xid {@code xid}, e.g. {@code Xid 79: fell off the bus}. */
  public static String xidReason(int xid) {
    return "Xid " + xid + ": " + XID_NAMES.getOrDefault(xid, "critical error");
  }

  /** Every problem {@code h} reports, each as its reason; empty for a well GPU. */
  public static List<String> problems(GpuHealth h) {
    List<String> out = new ArrayList<>();
    if (h.lost()) out.add(lostReason());
    h.xids().stream().filter(Unwell::critical).distinct().map(Unwell::xidReason).forEach(out::add);
    if (h.eccUncorrected() != null && h.eccUncorrected() > 0) out.add(eccReason(h.eccUncorrected()));
    if (h.retiredPagesPending()) out.add("retired memory pages wait for a GPU reset");
    if (h.remapFailed()) out.add("a memory row remapping failed");
    return out;
  }

  /** The reason of the first problem that {@code now} reports and {@code before} did not; null when none arose. */
  public static String arisen(GpuHealth before, GpuHealth now) {
    GpuHealth was = before == null ? GpuHealth.NONE : before;
    if (now.lost() && !was.lost()) return lostReason();
    for (int xid : now.xids()) {
      if (critical(xid) && !was.xids().contains(xid)) return xidReason(xid);
    }
    Long ecc = now.eccUncorrected();
    if (ecc != null && ecc > 0 && (was.eccUncorrected() == null || ecc > was.eccUncorrected())) return eccReason(ecc);
    if (now.retiredPagesPending() && !was.retiredPagesPending()) return "retired memory pages wait for a GPU reset";
    if (now.remapFailed() && !was.remapFailed()) return "a memory row remapping failed";
    return null;
  }

  /** Whether a drain's reason says the GPU was drained for its health. */
  public static boolean byHealth(String drainReason) {
    return drainReason != null && drainReason.startsWith(PREFIX);
  }

  /** The problem a health drain names, without {@link #PREFIX}; the reason itself otherwise. */
  public static String problem(String drainReason) {
    return byHealth(drainReason) ? drainReason.substring(PREFIX.length()) : drainReason;
  }

  private static String lostReason() {
    return "Xid 79: fell off the bus";
  }

  private static String eccReason(long count) {
    return count + " uncorrectable ECC error" + (count == 1 ? "" : "s");
  }
}
