package dev.gq.core.resume;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a job's checkpoints are and which is newest, as HuggingFace's Trainer lays them out: a
 * {@code checkpoint-N} directory per save under the job's {@code --output_dir} (or
 * {@code --output-dir}, against its working directory; else the working directory itself). A
 * checkpoint is complete once its {@code trainer_state.json} exists, which the Trainer writes after
 * the weights; a half-written one is passed over. The listing and the file checks are the caller's.
 * Pure.
 */
public final class Checkpoints {
  private Checkpoints() {}

  /** The file whose presence makes a checkpoint complete. */
  public static final String COMPLETE = "trainer_state.json";
  private static final Pattern NAME = Pattern.compile("checkpoint-(\\d{1,18})");

  /**
   * The directory a job run as {@code argv} in {@code cwd} saves its checkpoints under: the value of
   * its last {@code --output_dir}/{@code --output-dir} (as argparse takes it), against {@code cwd};
   * else {@code cwd}. Null when there is none, or the path cannot be named here.
   */
  public static Path root(List<String> argv, String cwd) {
    String out = null;
    for (int i = 0; argv != null && i < argv.size(); i++) {
      String a = argv.get(i);
      for (String flag : List.of("--output_dir", "--output-dir")) {
        if (a.equals(flag) && i + 1 < argv.size()) out = argv.get(i + 1);
        else if (a.startsWith(flag + "=")) out = a.substring(flag.length() + 1);
      }
    }
    try {
      if (out != null && !out.isEmpty()) return (cwd == null ? Path.of(out) : Path.of(cwd).resolve(out)).normalize();
      return cwd == null ? null : Path.of(cwd);
    } catch (RuntimeException e) { // a path the file system cannot name
      return null;
    }
  }

  /** The {@code checkpoint-N} names among {@code names}, newest (highest N) first. */
  public static List<String> newestFirst(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) if (NAME.matcher(n).matches()) out.add(n);
    out.sort(Comparator.comparingLong(Checkpoints::step).reversed());
    return out;
  }

  /** N of a {@code checkpoint-N} name; -1 for another name. */
  public static long step(String name) {
    Matcher m = NAME.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }
}
