package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class EnvFilterTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "HF_TOKEN", "GITHUB_TOKEN", "hf_token", "TOKEN", "GH_ACCESSTOKEN", "REFRESH_TOKENS",
      "HUGGINGFACE_HUB_TOKEN", "CLIENT_SECRET", "secret_sauce", "DB_PASSWORD", "MYSQL_PWD_PASSWD", "GOOGLE_CREDENTIALS",
      "OPENAI_APIKEY", "WANDB_API_KEY", "X_SESSION_KEY", "SSH_PRIVATE_KEY", "stripe_key",
      "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_CLIENT_SECRET",
      "AZURE_STORAGE_CONNECTION_STRING", "GPG_PASSPHRASE"})
  void secretLookingNames(String name) {
    assertTrue(EnvFilter.looksSecret(name), name);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "TOKENIZERS_PARALLELISM", "PATH", "HOME", "MONKEY_BUSINESS", "KEYBOARD", "KEY", "SSH_AUTH_SOCK",
      "CUDA_VISIBLE_DEVICES", "PYTHONPATH", "LANG", "GQ_GROUP", "TOKENIZER_NAME", "AWSOME", "MY_AWS_THING",
      "AWS_PROFILE", "aws_region", "AWS_DEFAULT_REGION", "AWS_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
      "AZURE_TENANT", "GCP_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS", "MY_TOKEN_FILE", "HF_TOKEN_PATH",
      "SSH_KEY_DIR"})
  void harmlessNames(String name) {
    assertFalse(EnvFilter.looksSecret(name), name);
  }

  private static Map<String, String> env(String... names) {
    Map<String, String> m = new TreeMap<>();
    for (String n : names) m.put(n, "v-" + n);
    return m;
  }

  @Test
  void dropsSecretsAndListsThemSorted() {
    EnvFilter.Result r = EnvFilter.filter(env("PATH", "Z_TOKEN", "A_SECRET", "HOME"), Set.of(), false);
    assertEquals(Map.of("PATH", "v-PATH", "HOME", "v-HOME"), r.kept());
    assertEquals(List.of("A_SECRET", "Z_TOKEN"), r.dropped());
  }

  @Test
  void keepNamesExactly() {
    EnvFilter.Result r = EnvFilter.filter(env("HF_TOKEN", "hf_token"), Set.of("HF_TOKEN"), false);
    assertEquals(Set.of("HF_TOKEN"), r.kept().keySet());
    assertEquals(List.of("hf_token"), r.dropped());
  }

  @Test
  void keepAllKeepsEverySecret() {
    EnvFilter.Result r = EnvFilter.filter(env("HF_TOKEN", "AWS_KEY", "PATH"), Set.of(), true);
    assertEquals(3, r.kept().size());
    assertTrue(r.dropped().isEmpty());
  }

  @Test
  void clientAndJobIdentityVariablesAreAlwaysDroppedSilently() {
    Map<String, String> e = env("GQ_CLIENT_TTY", "GQ_JOB_ID", "GQ_JOB_TAG", "GQ_GPU_UUIDS", "GQ_KEY", "GQ_GROUP", "PATH");
    EnvFilter.Result r = EnvFilter.filter(e, Set.of("GQ_JOB_TAG"), true);
    assertEquals(Set.of("GQ_GROUP", "PATH"), r.kept().keySet());
    assertTrue(r.dropped().isEmpty());
  }

  @Test
  void gqEnvAllMustBeExactlyOne() {
    assertTrue(EnvFilter.keepAllFromEnv(Map.of("GQ_ENV_ALL", "1")));
    assertFalse(EnvFilter.keepAllFromEnv(Map.of("GQ_ENV_ALL", "yes")));
    assertFalse(EnvFilter.keepAllFromEnv(Map.of()));
  }
}
