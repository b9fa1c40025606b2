package dev.gq.core.progress;

import java.util.Arrays;
import java.util.List;

/**
 * Reads the two numbers gq needs from a HuggingFace {@code trainer_state.json}: the top-level
 * {@code global_step} and {@code max_steps}. A small hand-written scan (core has no JSON library):
 * it walks strings and nesting so that keys inside {@code log_history} or inside strings are
 * never taken for the top-level ones. A text that is not one closed object (a file still being
 * written), without both numbers, with {@code max_steps <= 0} or with the step past the maximum
 * is no reading. Pure: the caller reads the file.
 */
public final class TrainerState {
  private TrainerState() {}

  /** The checkpoint reading in {@code json}, or null when it holds none. */
  public static Reading parse(String json) {
    if (json == null) return null;
    long[] found = topLevelWholeNumbers(json, "global_step", "max_steps");
    if (found == null) return null;
    long step = found[0];
    long max = found[1];
    if (step < 0 || max <= 0 || step > max) return null;
    return Reading.of(Source.CHECKPOINT, step, max);
  }

  /**
   * The whole numbers stored under {@code keys} in the outermost object (-1 for a key that is
   * absent or holds something else), or null when the text is not one closed object.
   */
  static long[] topLevelWholeNumbers(String json, String... keys) {
    long[] found = new long[keys.length];
    Arrays.fill(found, -1);
    int depth = 0;
    int i = skipSpace(json, 0);
    if (i >= json.length() || json.charAt(i) != '{') return null;
    for (; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c == '"') {
        int end = stringEnd(json, i);
        if (end < 0) return null;
        int colon = skipSpace(json, end + 1);
        if (depth == 1 && colon < json.length() && json.charAt(colon) == ':') {
          int k = List.of(keys).indexOf(json.substring(i + 1, end));
          if (k >= 0) found[k] = wholeNumberAt(json, skipSpace(json, colon + 1));
        }
        i = end;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return skipSpace(json, i + 1) == json.length() ? found : null;
      }
    }
    return null;
  }

  /** The index of the quote that closes the string opening at {@code open}, or -1. */
  private static int stringEnd(String s, int open) {
    for (int i = open + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') i++;
      else if (c == '"') return i;
    }
    return -1;
  }

  private static int skipSpace(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    return i;
  }

  /** A JSON number at {@code i} that is a whole, non-negative value that fits a long; else -1. */
  private static long wholeNumberAt(String s, int i) {
    int end = i;
    while (end < s.length() && "0123456789.eE+-".indexOf(s.charAt(end)) >= 0) end++;
    if (end == i) return -1;
    try {
      double value = Double.parseDouble(s.substring(i, end));
      if (value < 0 || value != Math.rint(value) || value > 1e15) return -1;
      return (long) value;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
