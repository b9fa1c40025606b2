package dev.gq.core.job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The names a mistyped word most likely meant: those at the smallest edit distance from it
 * (insertions, deletions, substitutions and swaps of two neighbours each count one; case is
 * ignored, and so are leading dashes), when that distance is small for the word's length: none
 * for a single letter, one edit for words of up to four letters, two for longer ones. {@code sumbit} finds {@code submit}, {@code --gpu} finds
 * {@code --gpus}, {@code sp} finds {@code ps}; a word unlike every name finds nothing. Used for
 * commands and options, and for the keys of the configuration file. Pure.
 */
public final class Suggestions {
  private Suggestions() {}

  /** The closest names, in the order given; empty when none is close enough. */
  public static List<String> closest(String typed, Collection<String> names) {
    String word = bare(typed);
    int limit = word.length() <= 1 ? 0 : word.length() <= 4 ? 1 : 2;
    int best = limit + 1;
    List<String> found = new ArrayList<>();
    for (String name : names) {
      int d = distance(word, bare(name));
      if (d > limit) continue;
      if (d < best) {
        best = d;
        found.clear();
      }
      if (d == best && !found.contains(name)) found.add(name);
    }
    return found;
  }

  /** The word without its leading dashes, in lower case: {@code --GPU} and {@code gpu} are alike. */
  private static String bare(String s) {
    int i = 0;
    while (i < s.length() && s.charAt(i) == '-') i++;
    return s.substring(i).toLowerCase(Locale.ROOT);
  }

  /** Edit distance where swapping two neighbouring letters is one edit (optimal string alignment). */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) d[i][0] = i;
    for (int j = 0; j <= b.length(); j++) d[0][j] = j;
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
