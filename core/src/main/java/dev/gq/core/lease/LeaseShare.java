package dev.gq.core.lease;

import dev.gq.core.gpu.MemoryText;
import java.util.Optional;

/**
 * One shared job's share of a GPU, as its share file says: its holder, the memory it declared and
 * the most shared jobs it allows on the GPU ({@code perGpu}, its {@code --per-gpu}; 0 for no cap).
 * Written by the holder into the share file it keeps locked; read by every gq on the machine to
 * count the card's declared memory and shares and to show who shares it. {@code holder} is null and
 * {@code mib} {@link #UNKNOWN_MIB} when a locked share file's line cannot be read (torn, forged or
 * of another format): such a share counts as the whole card.
 */
public record LeaseShare(LeaseHolder holder, long mib, int perGpu) {

  public static final long UNKNOWN_MIB = -1;

  private static final String PREFIX = "gq-share mib=";
  private static final String CAP = "per-gpu=";
  private static final String HOLDER_PREFIX = "gq-lease ";

  public LeaseShare(LeaseHolder holder, long mib) {
    this(holder, mib, 0);
  }

  /** A live share whose line could not be read. */
  public static LeaseShare unknown() {
    return new LeaseShare(null, UNKNOWN_MIB);
  }

  public boolean known() {
    return holder != null && mib > 0;
  }

  /** This share with its holder as the kernel names it ({@link LockWitness#attribute}). */
  public LeaseShare attributed(LockWitness k) {
    LeaseHolder h = LockWitness.attribute(holder, k);
    return h == null ? this : new LeaseShare(h, mib, perGpu);
  }

  /**
   * The line written into the share file: {@code gq-share mib=20480 uid=1000 user=alice job=12 data=/home/alice/...},
   * with {@code per-gpu=K} after the memory when the job caps its GPU's shares (a gq that does not
   * know the field reads such a line as unreadable, so counts the share as the whole card).
   */
  public String line() {
    if (!known()) throw new IllegalStateException("an unknown share has no line");
    return PREFIX + mib + " " + (perGpu > 0 ? CAP + perGpu + " " : "") + holder.line().substring(HOLDER_PREFIX.length());
  }

  /** The share a share file's text names, or empty when it is not a whole line in that form. */
  public static Optional<LeaseShare> parse(String text) {
    if (text == null || !text.startsWith(PREFIX)) return Optional.empty();
    int blank = text.indexOf(' ', PREFIX.length());
    if (blank < 0) return Optional.empty();
    long mib;
    int cap = 0;
    String rest = text.substring(blank + 1);
    try {
      mib = Long.parseLong(text.substring(PREFIX.length(), blank));
      if (rest.startsWith(CAP)) {
        int end = rest.indexOf(' ');
        if (end < 0) return Optional.empty();
        cap = Integer.parseInt(rest.substring(CAP.length(), end));
        if (cap < 1) return Optional.empty();
        rest = rest.substring(end + 1);
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (mib < 1) return Optional.empty();
    int perGpu = cap;
    return LeaseHolder.parse(HOLDER_PREFIX + rest).map(h -> new LeaseShare(h, mib, perGpu));
  }

  /** "alice's job 12 (20.0 GiB)", or "a gq job whose share does not say who it is" when unknown. */
  public String describe(LeaseHolder.Instance self) {
    if (!known()) return holder == null ? "a gq job whose share does not say who it is" : holder.describe(self) + ", whose share does not say its size";
    return holder.describe(self) + " (" + MemoryText.words(mib) + (perGpu > 0 ? ", at most " + perGpu + " per GPU" : "") + ")";
  }
}
