package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes a job's environment into its history document as the JSON the history's mapper makes of
 * it, made once for the last map written: the jobs of a batch share one map (a spec's environment
 * cannot change), and it is most of each job's document.
 */
final class EnvJson extends JsonSerializer<Map<String, String>> {
  /** The last environment written and its JSON. */
  private record Made(Map<String, String> env, String json) {}

  private static final AtomicReference<Made> LAST = new AtomicReference<>();

  /** Puts {@link EnvJson} on a spec's {@code env}. */
  abstract static class Mixin {
    @JsonSerialize(using = EnvJson.class)
    abstract Map<String, String> env();
  }

  /** Whether {@code env}'s JSON is the one kept (the last environment written). */
  static boolean kept(Map<String, String> env) {
    Made last = LAST.get();
    return last != null && last.env() == env;
  }

  @Override
  public void serialize(Map<String, String> env, JsonGenerator gen, SerializerProvider serializers) throws IOException {
    Made last = LAST.get();
    if (last == null || last.env() != env) {
      last = new Made(env, JobDocuments.envJson(env));
      LAST.set(last);
    }
    gen.writeRawValue(last.json());
  }
}
