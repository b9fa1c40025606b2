package dev.gq.core.gpu;

import java.util.List;

/**
 * One GPU as `gq gpu` shows it: the classification of one device reading against the
 * reservations. {@code ownerJobId} is set whenever a job holds the GPU, even when UNKNOWN;
 * {@code detail} says why a GPU is UNKNOWN or EXTERNAL; {@code heldBy} names the job of another gq
 * on the machine (or of this one, ended) whose machine-wide lease holds it ("alice's job 12").
 * Memory in bytes. {@code shares} lists this gq's shared jobs on a SHARED GPU (empty otherwise);
 * {@code ownerJobId} is then the first of them. {@code others} lists the shares other gq instances on
 * the machine (other users, other data directories) hold on it, as their machine-wide leases say: a
 * GPU only they share is SHARED here too, with no owner and no {@code shares}.
 */
public record GpuStatus(
    int index,
    String uuid,
    String name,
    GpuState state,
    Long ownerJobId,
    List<DeviceReading.GpuProcess> processes,
    long totalBytes,
    long usedBytes,
    String detail,
    String heldBy,
    List<Share> shares,
    List<Other> others) {

  public GpuStatus {
    processes = List.copyOf(processes);
    shares = shares == null ? List.of() : List.copyOf(shares);
    others = others == null ? List.of() : List.copyOf(others);
  }

  /** With this gq's {@code shares} and no other instance's. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail, String heldBy,
      List<Share> shares) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, heldBy, shares, List.of());
  }

  /**
   * Another gq instance's share of a GPU: who holds it ({@code holder}, "bob's job 3") and the memory
   * it declared ({@code mib}; a share whose line could not be read counts as the whole card), and
   * the most shared jobs per GPU it allows ({@code perGpu}, its --per-gpu; 0: none).
   */
  public record Other(String holder, long mib, int perGpu) {
    public Other(String holder, long mib) {
      this(holder, mib, 0);
    }
  }

  /** This GPU as it is, its state, owner, detail and this gq's shares replaced, other instances' shares kept. */
  public GpuStatus with(GpuState state, Long ownerJobId, String detail, String heldBy, List<Share> shares) {
    return new GpuStatus(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, heldBy, shares, others);
  }

  /**
   * One shared job on a GPU: the memory it asked for ({@code vramMiB}, 0: it counts with {@code
   * perGpu} instead), the cap on shared jobs per GPU it asked for ({@code perGpu}, 0: none), and the
   * memory its processes on this GPU use now ({@code usedMiB}, -1 when the driver does not say).
   */
  public record Share(long jobId, long vramMiB, int perGpu, long usedMiB) {
    /** What it declared of a card of {@code totalMiB}, by {@link #declaredMiB(long, int, long, long)}. */
    public long declaredMiB(long totalMiB, long headroomMiB) {
      return declaredMiB(vramMiB, perGpu, totalMiB, headroomMiB);
    }

    /**
     * What a shared job declares of a GPU of {@code totalMiB}, {@code headroomMiB} being kept free on
     * every shared GPU: its {@code vramMiB}, or without it (total − headroom) / K for {@code --per-gpu
     * K}, so that K such jobs fill the card exactly; the whole card when it asked neither.
     */
    public static long declaredMiB(long vramMiB, int perGpu, long totalMiB, long headroomMiB) {
      if (vramMiB > 0) return vramMiB;
      if (perGpu > 0) return Math.max(1, (totalMiB - headroomMiB) / perGpu);
      return totalMiB;
    }

    /** Whether the job uses more of a card of {@code totalMiB} than it declared. */
    public boolean over(long totalMiB, long headroomMiB) {
      return usedMiB > declaredMiB(totalMiB, headroomMiB);
    }
  }

  /** A GPU no job shares. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail, String heldBy) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, heldBy, List.of());
  }

  /** The sum of the memory its shared jobs declared, this gq's and other instances', in MiB. */
  public long sharedMiB(long headroomMiB) {
    long sum = 0;
    for (Share s : shares) sum = add(sum, s.declaredMiB(totalMiB(), headroomMiB));
    for (Other o : others) sum = add(sum, o.mib());
    return sum;
  }

  private static long add(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }

  /** How many shared jobs of any gq instance share it. */
  public int shareCount() {
    return shares.size() + others.size();
  }

  /** What is left for one more shared job, in MiB (below 0: over). */
  public long leftMiB(long headroomMiB) {
    long shared = sharedMiB(headroomMiB);
    return shared >= Long.MAX_VALUE / 2 ? -1 : totalMiB() - headroomMiB - shared;
  }

  /** The shared jobs whose processes use more than they declared. */
  public List<Share> overShares(long headroomMiB) {
    return shares.stream().filter(s -> s.over(totalMiB(), headroomMiB)).toList();
  }

  /** Its total memory in MiB. */
  public long totalMiB() {
    return totalBytes >> 20;
  }

  /** A GPU no other gq's lease holds. */
  public GpuStatus(int index, String uuid, String name, GpuState state, Long ownerJobId,
      List<DeviceReading.GpuProcess> processes, long totalBytes, long usedBytes, String detail) {
    this(index, uuid, name, state, ownerJobId, processes, totalBytes, usedBytes, detail, null);
  }
}
