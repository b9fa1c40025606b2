package dev.gq.core.job;

import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each GPU of a job must be, beyond their count ({@code --vram}, {@code --gpu-type}): at least
 * {@code vramMiB} of total memory (0: any), and a name that one of {@code types} names (empty: any).
 * A type names a GPU when its words appear, in order, among the words of the NVML name, ignoring
 * case: {@code A100} names "NVIDIA A100-SXM4-80GB", {@code 4090} and {@code RTX 4090} name "NVIDIA
 * GeForce RTX 4090", {@code 80GB} names no 40 GB card. Sizes are read as cards are labelled: G and M
 * are powers of ten (an "80GB" card reports about 81,559 MiB, a "24GB" one 24,564), GiB and MiB
 * powers of two; gq shows memory in GiB ({@link MemoryText}). A spec without a need (every spec stored before it existed) holds null.
 *
 * <p>{@code share} ({@code --share}) lets the job sit on a GPU beside other shared jobs instead of
 * having it to itself; it then declares {@code vramMiB} as its share of each GPU. {@code perGpu}
 * ({@code --per-gpu K}, 0: none) caps how many shared jobs one GPU holds while this job is on it;
 * a shared job without {@code vramMiB} declares (total − headroom) / K of each card it goes on. A
 * need stored before sharing existed reads as exclusive with no cap.
 */
public record GpuNeed(long vramMiB, List<String> types, boolean share, int perGpu) {
  /** The most shared jobs one GPU may be asked to hold. */
  public static final int MAX_PER_GPU = 64;
  /** The most a job may ask of one GPU: 4 TiB. */
  public static final long MAX_MIB = 4L << 20;
  private static final Pattern SIZE =
      Pattern.compile("(\\d{1,7}(?:\\.\\d{1,3})?)\\s*(t|tb|ti|tib|g|gb|gi|gib|m|mb|mi|mib)", Pattern.CASE_INSENSITIVE);
  private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}");

  public GpuNeed {
    types = types == null ? List.of() : List.copyOf(types);
    perGpu = Math.max(0, perGpu);
  }

  /** An exclusive need. */
  public GpuNeed(long vramMiB, List<String> types) {
    this(vramMiB, types, false, 0);
  }

  /** The need of {@code vramMiB} and {@code types}; null when it asks nothing. */
  public static GpuNeed of(long vramMiB, List<String> types) {
    return vramMiB <= 0 && (types == null || types.isEmpty()) ? null : new GpuNeed(Math.max(0, vramMiB), types);
  }

  /** As {@link #of(long, List)}, shared or with a cap per GPU; null when it asks nothing. */
  public static GpuNeed of(long vramMiB, List<String> types, boolean share, int perGpu) {
    if (!share && perGpu <= 0) return of(vramMiB, types);
    return new GpuNeed(Math.max(0, vramMiB), types, share, perGpu);
  }

  /**
   * What this shared need declares of a GPU of {@code totalMiB}, {@code headroomMiB} being kept free
   * on every shared GPU: its {@code vramMiB}, or without it (total − headroom) / K for {@code
   * --per-gpu K}, so that K such jobs fill the card exactly.
   */
  public long declaredMiB(long totalMiB, long headroomMiB) {
    return GpuStatus.Share.declaredMiB(vramMiB, perGpu, totalMiB, headroomMiB);
  }

  /** Why a need with {@code share} cannot be placed as asked, or null: a shared job must say how much of a card it takes. */
  public String shareProblem() {
    if (share && vramMiB <= 0 && perGpu <= 0)
      return "--share needs the memory the job takes of a GPU: add --vram SIZE (e.g. --vram 20G) or --per-gpu K";
    if (perGpu > MAX_PER_GPU) return "--per-gpu must be from 1 to " + MAX_PER_GPU + ", not " + perGpu;
    return null;
  }

  /** Whether a GPU named {@code name} with {@code totalBytes} of memory meets this need. */
  public boolean fits(String name, long totalBytes) {
    return hasMemory(totalBytes) && ofType(name);
  }

  /** Whether {@code totalBytes} is at least the memory asked for. */
  public boolean hasMemory(long totalBytes) {
    return vramMiB <= 0 || (totalBytes >> 20) >= vramMiB;
  }

  /** Whether one of the types names a GPU called {@code name} (any name when no type is asked for). */
  public boolean ofType(String name) {
    if (types.isEmpty()) return true;
    List<String> words = words(name);
    for (String t : types) {
      List<String> run = words(t);
      if (!run.isEmpty() && Collections.indexOfSubList(words, run) >= 0) return true;
    }
    return false;
  }

  /** "with ≥ 37.3 GiB", "of type H100", "of type H100 or A100 with ≥ 37.3 GiB": what the need asks of each GPU, as gq shows memory. */
  public String text() {
    String type = types.isEmpty() ? "" : "of type " + String.join(" or ", types);
    String memory = vramMiB <= 0 ? "" : "with ≥ " + MemoryText.words(vramMiB);
    return (type + " " + memory).strip();
  }

  /**
   * The MiB that {@code text} asks for ("20G", "20GB", "20GiB", "512M", "1.5T"), rounded up; null when
   * it is not a size. See {@link #sizeProblem} for the words of a refusal.
   */
  public static Long parseMiB(String text) {
    if (text == null) return null;
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) return null;
    BigDecimal n = new BigDecimal(m.group(1));
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    BigDecimal bytes = switch (unit) {
      case "t", "tb" -> n.movePointRight(12);
      case "g", "gb" -> n.movePointRight(9);
      case "m", "mb" -> n.movePointRight(6);
      case "ti", "tib" -> n.multiply(BigDecimal.valueOf(1L << 40));
      case "gi", "gib" -> n.multiply(BigDecimal.valueOf(1L << 30));
      default -> n.multiply(BigDecimal.valueOf(1L << 20));
    };
    return bytes.divide(BigDecimal.valueOf(1L << 20), 0, RoundingMode.CEILING).longValueExact();
  }

  /** Why {@code text} is not a memory size gq takes ({@code option} names where it was given), or null. */
  public static String sizeProblem(String option, String text) {
    Long mib = parseMiB(text);
    if (mib == null)
      return "invalid size '" + PrintableText.escape(String.valueOf(text)) + "' for " + option
          + "; give it with a unit, like 20G, 80GB, 24GiB or 512M (G and M as cards are labelled, GiB and MiB in powers of two)";
    if (mib < 1) return option + " must be at least 1M, not " + PrintableText.escape(text);
    if (mib > MAX_MIB) return option + " must be at most 4TiB, not " + PrintableText.escape(text);
    return null;
  }

  /** The types a comma list gives ("A100,H100"), trimmed; a problem is an {@link IllegalArgumentException} in one line. */
  public static List<String> parseTypes(String option, String list) {
    List<String> out = new ArrayList<>();
    for (String part : list.split(",", -1)) {
      String t = part.strip();
      if (!TYPE.matcher(t).matches())
        throw new IllegalArgumentException("invalid GPU type '" + PrintableText.escape(t) + "' for " + option
            + "; give a word of the GPU's name, like A100, H100 or 4090 (several: A100,H100)");
      if (!out.contains(t)) out.add(t);
    }
    return List.copyOf(out);
  }

  /** The lower-case words of a GPU's name or of a type. */
  static List<String> words(String name) {
    if (name == null) return List.of();
    return Arrays.stream(name.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")).filter(w -> !w.isEmpty()).toList();
  }
}
