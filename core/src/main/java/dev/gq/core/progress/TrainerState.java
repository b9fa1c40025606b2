package dev.gq.core.progress;

/**
 * Reads the two numbers gq needs from a HuggingFace {@code trainer_state.json}: the top-level
 * {@code global_step} and {@code max_steps}. A small hand-written scan (core has no JSON library):
 * it walks strings and nesting so that keys inside {@code log_history} or inside strings are
 * never taken for the top-level ones. A file without both, with {@code max_steps <= 0} or with
 * the step past the maximum is no reading. Pure: the caller reads the file.
 */
public final class TrainerState {
  private TrainerState() {}

  /** The checkpoint reading in {@code json}, or null when it holds none. */
  public static Reading parse(String json) {
    if (json == null) return null;
    long step = topLevelWholeNumber(json, "global_step");
    long max = topLevelWholeNumber(json, "max_steps");
    if (step < 0 || max <= 0 || step > max) return null;
    return Reading.of(Source.CHECKPOINT, step, max);
  }

  /** The whole number stored under {@code key} in the outermost object, or -1. */
  static long topLevelWholeNumber(String json, String key) {
    int depth = 0;
    int i = 0;
    while (i < json.length()) {
      char c = json.charAt(i);
      if (c == '"') {
        int end = stringEnd(json, i);
        if (end < 0) return -1;
        if (depth == 1 && json.substring(i + 1, end).equals(key)) {
          int colon = skipSpace(json, end + 1);
          if (colon < json.length() && json.charAt(colon) == ':') return wholeNumberAt(json, skipSpace(json, colon + 1));
        }
        i = end + 1;
        continue;
      }
      if (c == '{' || c == '[') depth++;
      if (c == '}' || c == ']') depth--;
      i++;
    }
    return -1;
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
