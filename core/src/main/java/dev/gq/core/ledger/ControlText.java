package dev.gq.core.ledger;

import java.util.ArrayList;
import java.util.List;

/**
 * The words for the events a user's controls leave ({@code gq gpu drain}/{@code resume}, {@code gq
 * hold}/{@code release} of jobs), as {@code gq top}, {@code gq events} and the daemon log show them:
 * the GPU by index with its UUID, and the jobs by id, consecutive ids as a range ("jobs 4-6, 9").
 * The stored events keep their shape; only what is known when they are shown (a GPU's index, the
 * jobs still on it) is added here. Pure.
 */
public final class ControlText {
  /** The most ranges named before "+N more". */
  static final int MAX_RANGES = 8;

  private ControlText() {}

  /** "GPU 2 (GPU-8f3a…) drained: why; job 4 keeps running there"; {@code index} null: the UUID alone. */
  public static String drained(Integer index, String uuid, String reason, List<Long> stillThere) {
    String jobs = stillThere.isEmpty() ? "" : "; " + jobs(stillThere) + (stillThere.size() == 1 ? " keeps" : " keep")
        + " running there";
    return gpu(index, uuid) + " drained: " + reason + jobs;
  }

  /** "GPU 2 (GPU-8f3a…) takes new jobs again". */
  public static String resumed(Integer index, String uuid) {
    return gpu(index, uuid) + " takes new jobs again";
  }

  /** "jobs 4-6, 9 held by the user", "job 4 released". */
  public static String held(List<Long> jobIds, boolean held) {
    return jobs(jobIds) + (held ? " held by the user" : " released");
  }

  /** "GPU 2 (GPU-8f3a2c1d-1111-2222-3333-444455556666)", or "GPU GPU-8f3a…" when its index is unknown. */
  public static String gpu(Integer index, String uuid) {
    return index == null ? "GPU " + uuid : "GPU " + index + " (" + uuid + ")";
  }

  /** "job 4", "jobs 4-6, 9", "jobs 1, 3, 5, ... +4 more". */
  public static String jobs(List<Long> ids) {
    List<Long> sorted = ids.stream().distinct().sorted().toList();
    List<String> ranges = new ArrayList<>();
    for (int i = 0; i < sorted.size(); ) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) j++;
      ranges.add(j == i ? String.valueOf(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
      i = j + 1;
    }
    String shown = String.join(", ", ranges.subList(0, Math.min(MAX_RANGES, ranges.size())));
    String more = ranges.size() > MAX_RANGES ? ", +" + (ranges.size() - MAX_RANGES) + " more" : "";
    return (sorted.size() == 1 ? "job " : "jobs ") + shown + more;
  }
}
