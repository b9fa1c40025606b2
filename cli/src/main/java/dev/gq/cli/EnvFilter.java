package dev.gq.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides which of the caller's environment variables a job stores: all but real secrets. A name
 * is a secret when, ignoring case, it contains SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
 * APIKEY, API_KEY, ACCESS_KEY, PRIVATE_KEY, SESSION_KEY or CONNECTION_STRING, ends with _KEY, or
 * has a {@code _}-separated part ending in TOKEN or TOKENS (HF_TOKEN, GH_ACCESSTOKEN,
 * AWS_SESSION_TOKEN; not TOKENIZERS_PARALLELISM) — unless it names where a secret lives rather
 * than holding one: a name ending in _FILE, _PATH, _DIR or _BUNDLE (AWS_CA_BUNDLE, HF_TOKEN_PATH),
 * and GOOGLE_APPLICATION_CREDENTIALS (a key file's path). Settings such as AWS_REGION and
 * AWS_PROFILE are kept. Secret names are dropped unless kept by name or all are kept. The client's
 * own GQ_CLIENT_* variables and a surrounding job's identity (GQ_JOB_ID, GQ_JOB_TAG, GQ_GPU_UUIDS,
 * GQ_KEY) are always dropped, silently: the daemon sets fresh ones at launch. Pure.
 */
public final class EnvFilter {
  private static final List<String> ANYWHERE = List.of("SECRET", "PASSWORD", "PASSWD", "PASSPHRASE",
      "CREDENTIAL", "APIKEY", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "SESSION_KEY", "CONNECTION_STRING");
  private static final List<String> PLACES = List.of("_FILE", "_PATH", "_DIR", "_BUNDLE");
  private static final Set<String> PLACE_NAMES = Set.of("GOOGLE_APPLICATION_CREDENTIALS");
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
    if (PLACE_NAMES.contains(upper)) return false;
    for (String suffix : PLACES) if (upper.endsWith(suffix)) return false;
    for (String word : ANYWHERE) if (upper.contains(word)) return true;
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
