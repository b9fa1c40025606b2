package dev.gq.core.lease;

import java.util.Optional;

/**
 * One shared job's share of a GPU, as its share file says: its holder and the memory it declared.
 * Written by the holder into the share file it keeps locked; read by every gq on the machine to
 * count the card's declared memory and to show who shares it. {@code holder} is null and
 * {@code mib} {@link #UNKNOWN_MIB} when a locked share file's line cannot be read (torn, forged or
 * of another format): such a share counts as the whole card.
 */
public record LeaseShare(LeaseHolder holder, long mib) {

  public static final long UNKNOWN_MIB = -1;

  private static final String PREFIX = "gq-share mib=";
  private static final String HOLDER_PREFIX = "gq-lease ";

  /** A live share whose line could not be read. */
  public static LeaseShare unknown() {
    return new LeaseShare(null, UNKNOWN_MIB);
  }

  public boolean known() {
    return holder != null && mib > 0;
  }

  /** The line written into the share file: {@code gq-share mib=20480 uid=1000 user=alice job=12 data=/home/alice/...}. */
  public String line() {
    if (!known()) throw new IllegalStateException("an unknown share has no line");
    return PREFIX + mib + " " + holder.line().substring(HOLDER_PREFIX.length());
  }

  /** The share a share file's text names, or empty when it is not a whole line in that form. */
  public static Optional<LeaseShare> parse(String text) {
    if (text == null || !text.startsWith(PREFIX)) return Optional.empty();
    int blank = text.indexOf(' ', PREFIX.length());
    if (blank < 0) return Optional.empty();
    long mib;
    try {
      mib = Long.parseLong(text.substring(PREFIX.length(), blank));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (mib < 1) return Optional.empty();
    return LeaseHolder.parse(HOLDER_PREFIX + text.substring(blank + 1)).map(h -> new LeaseShare(h, mib));
  }

  /** "alice's job 12 (20480 MiB)", or "a gq job whose share does not say who it is" when unknown. */
  public String describe(LeaseHolder.Instance self) {
    if (!known()) return "a gq job whose share does not say who it is";
    return holder.describe(self) + " (" + mib + " MiB)";
  }
}
