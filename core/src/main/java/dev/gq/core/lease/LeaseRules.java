package dev.gq.core.lease;

import dev.gq.core.gpu.MemoryText;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a file at a GPU's lease name means when it is not a lease file gq can lock. A lease is held
 * only while a regular file under that name is locked; gq opens it without following links. So a
 * name that is a link, a directory or any other non-regular file is no lease at all: nobody holds
 * the GPU through it, and nobody can take its lease either. Whoever may remove it from the sticky
 * directory (root, its owner, the directory's owner) removes it when it takes the lease, so it
 * reads FREE to them; to everyone else the GPU is BLOCKED, naming the owner who can clear it. A
 * directory is removed by no gq (it may hold files): it blocks the GPU for everyone. A
 * regular file this user cannot open (another user's, made without read access for others) may
 * still be locked by a job of its owner's, which this user cannot see: it counts as held (fail
 * closed), BLOCKED, again naming the owner. The same holds for a GPU's share files: one this user
 * cannot open may be a live share of unknown size, so the GPU is BLOCKED naming its owner.
 *
 * <p>Shares: a shared job may join a GPU while the memory its live shares declare, its own and the
 * joiner's headroom fit the card's total, and, where the joiner caps shared jobs per GPU, while
 * fewer than that many share it ({@link #shareRefusal}). A share whose line cannot be read counts
 * as the whole card (fail closed). Pure.
 */
public final class LeaseRules {
  private LeaseRules() {}

  /** Whether the sticky lease directory lets {@code self} remove a file of {@code fileOwner}'s. */
  public static boolean mayRemove(int self, int fileOwner, int dirOwner) {
    return self == 0 || self == fileOwner || self == dirOwner;
  }

  /**
   * The lease of a GPU whose name {@code file} is {@code what} ("a symbolic link", "a directory")
   * of {@code owner}'s: FREE to whoever may remove it (taking the lease removes it), else BLOCKED.
   */
  public static GpuLease notAFile(String file, String what, String owner, int self, int fileOwner, int dirOwner) {
    // a directory may hold files: gq removes none, so it blocks the GPU for everyone until removed
    if (!what.equals(kind('d')) && mayRemove(self, fileOwner, dirOwner)) return GpuLease.FREE;
    return GpuLease.blocked("its lease file " + file + " is " + what + " of " + owner
        + "'s, not a lease: no gq of this user can lease the GPU until " + clearers(owner) + " removes it");
  }

  /** The lease of a GPU whose lease file, {@code owner}'s with {@code mode}, this user cannot open. */
  public static GpuLease closed(String file, String owner, int mode) {
    return closed("lease", file, owner, mode);
  }

  /** The lease of a GPU one of whose share files, {@code owner}'s with {@code mode}, this user cannot open. */
  public static GpuLease closedShare(String file, String owner, int mode) {
    return closed("share", file, owner, mode);
  }

  private static GpuLease closed(String what, String file, String owner, int mode) {
    return GpuLease.blocked("its " + what + " file " + file + " is " + owner + "'s and closed to this user (mode "
        + String.format("%04o", mode & 07777) + "), so a job of " + owner + "'s may hold it: counted as held until "
        + clearers(owner) + " removes it");
  }

  /**
   * The memory the live {@code shares} of a card of {@code totalMiB} declare together, a share whose
   * line cannot be read counted as the whole card; never more than {@code Long.MAX_VALUE}.
   */
  public static long declaredMiB(List<LeaseShare> shares, long totalMiB) {
    long sum = 0;
    for (LeaseShare s : shares) {
      long one = s.known() ? s.mib() : Math.max(totalMiB, 1);
      sum = sum > Long.MAX_VALUE - one ? Long.MAX_VALUE : sum + one;
    }
    return sum;
  }

  /**
   * Why a shared job of {@code mib} may not join GPU {@code gpu} (a card of {@code totalMiB}) beside
   * its live {@code shares}, keeping {@code headroomMiB} free and, when {@code perGpuCap} is above 0,
   * at most that many shared jobs on it; null when it may. One line, naming the shares.
   */
  public static String shareRefusal(String gpu, List<LeaseShare> shares, long totalMiB, long mib, long headroomMiB,
      int perGpuCap, LeaseHolder.Instance self) {
    if (mib < 1) throw new IllegalArgumentException("a share declares its memory: " + mib + " MiB");
    int cap = cap(perGpuCap, shares);
    if (cap > 0 && shares.size() >= cap)
      return "GPU " + gpu + " already has " + shares.size() + " shared job" + (shares.size() == 1 ? "" : "s") + " ("
          + list(shares, self) + "), the most allowed per GPU (" + cap + (cap == perGpuCap ? "" : ", as one of them asked") + ")";
    long declared = declaredMiB(shares, totalMiB);
    long headroom = Math.max(0, headroomMiB);
    if (declared <= totalMiB && mib <= totalMiB - declared && headroom <= totalMiB - declared - mib) return null;
    String kept = headroom > 0 ? " plus " + MemoryText.words(headroom) + " of headroom" : "";
    if (shares.isEmpty())
      return "GPU " + gpu + " has " + MemoryText.words(totalMiB) + ", less than the " + MemoryText.words(mib) + " declared" + kept;
    return "GPU " + gpu + " cannot hold " + MemoryText.words(mib) + " more" + kept + ": its shared jobs declare "
        + (declared >= totalMiB && shares.stream().anyMatch(s -> !s.known()) ? "all" : MemoryText.words(declared))
        + " of its " + MemoryText.words(totalMiB) + " (" + list(shares, self) + ")";
  }

  /**
   * The most shared jobs a GPU may hold: the smallest cap among the newcomer's ({@code perGpuCap})
   * and the live {@code shares}' own (each share's --per-gpu, whatever gq put it there); 0 for none.
   */
  public static int cap(int perGpuCap, List<LeaseShare> shares) {
    int cap = Math.max(0, perGpuCap);
    for (LeaseShare s : shares) if (s.perGpu() > 0 && (cap == 0 || s.perGpu() < cap)) cap = s.perGpu();
    return cap;
  }

  /** "alice's job 3 (20.0 GiB), bob's job 5 (10.0 GiB)". */
  public static String list(List<LeaseShare> shares, LeaseHolder.Instance self) {
    return shares.stream().map(s -> s.describe(self)).collect(Collectors.joining(", "));
  }

  /** Who may remove a file of {@code owner}'s from the sticky lease directory. */
  private static String clearers(String owner) {
    return "root".equals(owner) ? "root" : owner + " or root";
  }

  /** How a non-regular file is named in a reason, from its type letter as {@code ls -l} shows it. */
  public static String kind(char type) {
    return switch (type) {
      case 'l' -> "a symbolic link";
      case 'd' -> "a directory";
      case 'p' -> "a named pipe";
      case 's' -> "a socket";
      case 'c', 'b' -> "a device";
      default -> "a special file";
    };
  }
}
