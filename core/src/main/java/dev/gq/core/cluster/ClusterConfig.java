package dev.gq.core.cluster;

import dev.gq.core.job.PrintableText;
import dev.gq.core.job.Suggestions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The cluster part of gq's configuration file: where jobs go by default ({@code to}, a
 * {@link ClusterTarget} value; null: this machine), how often the daemon asks Slurm about its jobs
 * ({@code slurm_poll}), and the Slurm profiles ({@code [slurm.NAME]} tables). {@link #from} reads
 * the parsed file; a value it cannot use, or a key or table it does not know, is an
 * {@link IllegalArgumentException} naming the key (with the key likely meant).
 */
public record ClusterConfig(String defaultProfile, Duration poll, Map<String, SlurmProfile> profiles) {
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(5);
  public static final ClusterConfig NONE = new ClusterConfig(null, DEFAULT_POLL, Map.of());
  private static final List<String> PROFILE_KEYS = List.of("partition", "account", "qos", "sbatch", "host", "signal");
  private static final List<String> TOP_KEYS = List.of("to", "slurm_poll", "slurm");

  public ClusterConfig {
    profiles = Map.copyOf(profiles);
    poll = poll == null ? DEFAULT_POLL : poll;
  }

  /** The profile named {@code name}: the one configured, else, for {@code default}, Slurm's own defaults; null when none. */
  public SlurmProfile profile(String name) {
    SlurmProfile p = profiles.get(name);
    if (p == null && ClusterTarget.DEFAULT_PROFILE.equals(name)) return SlurmProfile.defaults(name);
    return p;
  }

  /** The configuration in {@code doc} (the file's tables as maps); {@code file} names it in messages. */
  public static ClusterConfig from(Map<String, Object> doc, String file) {
    String to = null;
    Duration poll = DEFAULT_POLL;
    Map<String, SlurmProfile> profiles = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : doc.entrySet()) {
      switch (e.getKey()) {
        case "to" -> to = ClusterTarget.profile(text(e.getValue(), "to", file));
        case "slurm_poll" -> poll = poll(text(e.getValue(), "slurm_poll", file), file);
        case "slurm" -> {
          if (!(e.getValue() instanceof Map<?, ?> tables)) throw bad(file, "slurm", "a table of profiles: [slurm.NAME]");
          for (Map.Entry<?, ?> t : tables.entrySet()) {
            String name = String.valueOf(t.getKey());
            if (!ClusterTarget.validName(name)) throw bad(file, "slurm." + name, "a profile name of letters, digits, '-' and '_'");
            if (!(t.getValue() instanceof Map<?, ?> keys)) throw bad(file, "slurm." + name, "a table: [slurm." + name + "]");
            profiles.put(name, profile(name, keys, file));
          }
        }
        default -> throw unknown(file, e.getKey(), e.getValue() instanceof Map, null, TOP_KEYS);
      }
    }
    if (to != null && !profiles.containsKey(to) && !ClusterTarget.DEFAULT_PROFILE.equals(to))
      throw new IllegalArgumentException(file + ": to = \"" + ClusterTarget.text(to) + "\" names no profile; add a [slurm." + to + "] table");
    return new ClusterConfig(to, poll, profiles);
  }

  private static SlurmProfile profile(String name, Map<?, ?> keys, String file) {
    String partition = null, account = null, qos = null, host = null, signal = null;
    List<String> sbatch = List.of();
    for (Map.Entry<?, ?> k : keys.entrySet()) {
      String key = String.valueOf(k.getKey()), where = "slurm." + name + "." + key;
      switch (key) {
        case "partition" -> partition = word(k.getValue(), where, file);
        case "account" -> account = word(k.getValue(), where, file);
        case "qos" -> qos = word(k.getValue(), where, file);
        case "host" -> host = word(k.getValue(), where, file);
        case "signal" -> {
          signal = text(k.getValue(), where, file);
          if (!signal.matches("[A-Z0-9]{1,10}@\\d{1,5}")) throw bad(file, where, "SIGNAL@SECONDS, e.g. \"USR2@90\"");
        }
        case "sbatch" -> {
          if (!(k.getValue() instanceof List<?> list)) throw bad(file, where, "a list of options, e.g. [\"--mem=32G\"]");
          List<String> opts = new ArrayList<>();
          for (Object o : list) {
            String s = text(o, where, file);
            if (!s.startsWith("-")) throw bad(file, where, "options that start with '-' (got '" + s + "')");
            opts.add(s);
          }
          sbatch = opts;
        }
        default -> throw unknown(file, key, false, "slurm." + name + ".", PROFILE_KEYS);
      }
    }
    return new SlurmProfile(name, partition, account, qos, sbatch, host, signal);
  }

  private static Duration poll(String text, String file) {
    var m = Pattern.compile("(\\d{1,6})(ms|s|m)").matcher(text.strip());
    if (!m.matches()) throw bad(file, "slurm_poll", "a duration like \"5s\" or \"500ms\"");
    long n = Long.parseLong(m.group(1));
    Duration d = switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      default -> Duration.ofMinutes(n);
    };
    if (d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofMinutes(10)) > 0)
      throw bad(file, "slurm_poll", "between 100ms and 10m");
    return d;
  }

  private static String text(Object v, String key, String file) {
    if (!(v instanceof String s)) throw bad(file, key, "a string in quotes");
    return s;
  }

  /** A value without spaces or control characters (it becomes one sbatch or ssh word). */
  private static String word(Object v, String key, String file) {
    String s = text(v, key, file);
    if (!s.matches("[\\p{Graph}&&[^'\"\\\\]]{1,200}")) throw bad(file, key, "one word without spaces or quotes");
    return s;
  }

  /**
   * "FILE: unknown table [slurmm]; did you mean [slurm]?" or "FILE: unknown key foo; the file takes
   * ...": a key gq does not read is refused rather than passed over, so that a typo is not a
   * setting silently left out.
   */
  private static IllegalArgumentException unknown(String file, String key, boolean table, String prefix, List<String> keys) {
    String in = prefix == null ? "" : prefix;
    String what = table ? "table [" + PrintableText.escape(in + key) + "]" : "key " + PrintableText.escape(in + key);
    List<String> near = Suggestions.closest(key, keys);
    if (!near.isEmpty()) {
      String meant = near.get(0).equals("slurm") ? "[slurm]" : in + near.get(0);
      return new IllegalArgumentException(file + ": unknown " + what + "; did you mean " + meant + "?");
    }
    String all = prefix == null ? "the file takes to, slurm_poll and [slurm.NAME] tables"
        : "a profile takes " + String.join(", ", keys);
    return new IllegalArgumentException(file + ": unknown " + what + "; " + all);
  }

  private static IllegalArgumentException bad(String file, String key, String want) {
    return new IllegalArgumentException(file + ": " + key + " must be " + want);
  }
}
