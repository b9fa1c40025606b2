package dev.gq.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides which of the caller's environment variables a job stores. A name looks secret when,
 * ignoring case, it contains SECRET, PASSWORD, PASSWD, CREDENTIAL, APIKEY, API_KEY or
 * SESSION_KEY, ends with _KEY, starts with AWS_, AZURE_, GCP_ or GOOGLE_APPLICATION_, or has a
 * {@code _}-separated part ending in TOKEN or TOKENS (HF_TOKEN, GH_ACCESSTOKEN, MY_TOKEN_FILE; not
 * TOKENIZERS_PARALLELISM). Secret-looking names are dropped unless kept by name or all are kept.
 * The client's own GQ_CLIENT_* variables and a surrounding job's identity (GQ_JOB_ID, GQ_JOB_TAG,
 * GQ_GPU_UUIDS, GQ_KEY) are always dropped, silently: the daemon sets fresh ones at launch. Pure.
 */
public final class EnvFilter {
  private static final List<String> ANYWHERE =
      List.of("SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "API_KEY", "SESSION_KEY");
  private static final List<String> PREFIXES = List.of("AWS_", "AZURE_", "GCP_", "GOOGLE_APPLICATION_");
  private static final Set<String> JOB_IDENTITY = Set.of("GQ_JOB_ID", "GQ_JOB_TAG", "GQ_GPU_UUIDS", "GQ_KEY");

  private EnvFilter() {}

  /** What to store, and the secret-looking names left out (sorted). */
  public record Result(Map<String, String> kept, List<String> dropped) {}

  /**
   * Filters {@code env}. {@code keepAll} keeps every secret-looking variable; {@code keep} names
   * (exactly) the ones to keep anyway.
   */
  public static Result filter(Map<String, String> env, Collection<String> keep, boolean keepAll) {
    Map<String, String> kept = new TreeMap<>();
    List<String> dropped = new ArrayList<>();
    for (Map.Entry<String, String> e : env.entrySet()) {
      String name = e.getKey();
      if (internal(name)) continue;
      if (!keepAll && !keep.contains(name) && looksSecret(name)) dropped.add(name);
      else kept.put(name, e.getValue());
    }
    dropped.sort(null);
    return new Result(kept, List.copyOf(dropped));
  }

  /** Whether the variable's name suggests it holds a credential. */
  public static boolean looksSecret(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    for (String word : ANYWHERE) if (upper.contains(word)) return true;
    for (String prefix : PREFIXES) if (upper.startsWith(prefix)) return true;
    if (upper.endsWith("_KEY")) return true;
    for (String part : upper.split("_")) {
      if (part.endsWith("TOKEN") || part.endsWith("TOKENS")) return true;
    }
    return false;
  }

  private static boolean internal(String name) {
    return name.startsWith("GQ_CLIENT_") || JOB_IDENTITY.contains(name);
  }

  /** Whether the caller asked to keep everything through the environment (GQ_ENV_ALL=1). */
  public static boolean keepAllFromEnv(Map<String, String> env) {
    return "1".equals(env.get("GQ_ENV_ALL"));
  }
}
