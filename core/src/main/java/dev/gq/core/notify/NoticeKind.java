package dev.gq.core.notify;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a notification is about, with the word users type for it in {@code --notify=EVENTS},
 * {@code #gq --notify=} and {@code gq notify add --on}: {@code failed} (a job ended FAILED, TIMEOUT
 * or INTERRUPTED), {@code end} (every end of a job), {@code group} (a group has no job left waiting
 * or running), {@code held} (fail-fast held a group), {@code drained} (nothing is left waiting or
 * running after something ran), {@code over_memory} (a shared job uses more of a GPU than it
 * declared, once per job), {@code unhealthy} (a GPU was found unwell and drained), {@code idle} (a
 * running job's GPUs have shown 0 % utilisation longer than the idle threshold); {@code test} only from
 * {@code gq notify test}. Pure.
 */
public enum NoticeKind {
  FAILED, END, GROUP, HELD, DRAINED, OVER_MEMORY, UNHEALTHY, IDLE, TEST;

  /** What a target hears when it names nothing: failures, sweeps, fail-fast holds, the drained queue, shares overrun, unwell GPUs, idle jobs. */
  public static final Set<NoticeKind> DEFAULTS = Set.of(FAILED, GROUP, HELD, DRAINED, OVER_MEMORY, UNHEALTHY, IDLE);

  /** What {@code --notify} alone asks for: every end of the job, whatever its run time. */
  public static final Set<NoticeKind> BARE = Set.of(END);

  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The kinds a comma list names ({@code all}: every kind; {@code none}: no notice). Throws
   * IllegalArgumentException with a one-line message naming the bad word.
   */
  public static Set<NoticeKind> parse(String text) {
    EnumSet<NoticeKind> out = EnumSet.noneOf(NoticeKind.class);
    if (text == null || text.isBlank()) throw new IllegalArgumentException(problem(""));
    for (String w : text.split(",")) {
      String word = w.strip().toLowerCase(Locale.ROOT);
      switch (word) {
        case "all" -> out.addAll(EnumSet.of(FAILED, END, GROUP, HELD, DRAINED, OVER_MEMORY, UNHEALTHY, IDLE));
        case "none" -> { }
        case "failed", "end", "group", "held", "drained", "over_memory", "unhealthy", "idle" -> out.add(valueOf(word.toUpperCase(Locale.ROOT)));
        default -> throw new IllegalArgumentException(problem(w.strip()));
      }
    }
    return Set.copyOf(out);
  }

  /** The kinds as a comma list, in declaration order; {@code none} when empty. */
  public static String words(Set<NoticeKind> kinds) {
    if (kinds.isEmpty()) return "none";
    StringBuilder sb = new StringBuilder();
    for (NoticeKind k : values()) if (kinds.contains(k)) sb.append(sb.isEmpty() ? "" : ",").append(k.word());
    return sb.toString();
  }

  private static String problem(String word) {
    return "unknown notification event '" + word + "'; use a comma list of failed, end, group, held, drained, over_memory, unhealthy, idle, all or none";
  }
}
