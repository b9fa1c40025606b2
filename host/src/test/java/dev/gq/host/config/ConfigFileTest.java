package dev.gq.host.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.cluster.ClusterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileTest {
  @TempDir Path dir;

  @Test
  void gqConfigThenXdgThenHomeNameTheFile() {
    assertEquals(Path.of("/etc/x.toml"), ConfigFile.path(Map.of("GQ_CONFIG", "/etc/x.toml", "HOME", "/h")));
    assertEquals(Path.of("/x/gq/config.toml"), ConfigFile.path(Map.of("XDG_CONFIG_HOME", "/x", "HOME", "/h")));
    assertEquals(Path.of("/h/.config/gq/config.toml"), ConfigFile.path(Map.of("XDG_CONFIG_HOME", "rel", "HOME", "/h")));
  }

  @Test
  void noFileIsTheDefaults() {
    assertEquals(ClusterConfig.NONE, ConfigFile.cluster(Map.of("GQ_CONFIG", dir.resolve("none.toml").toString())));
  }

  @Test
  void aFileThatIsNotTomlIsOneLineNamingIt() throws Exception {
    Path f = Files.writeString(dir.resolve("bad.toml"), "to = \n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigFile.cluster(Map.of("GQ_CONFIG", f.toString())));
    assertTrue(e.getMessage().startsWith(f + " is not valid TOML"), e.getMessage());
    assertTrue(e.getMessage().endsWith("; fix or move it"), e.getMessage());
  }

  @Test
  void aCallerNamingTheDaemonsOwnFileIsNoMismatch() {
    Path f = dir.resolve("c.toml");
    Map<String, String> daemon = Map.of("GQ_CONFIG", f.toString());
    assertNull(ConfigFile.callerMismatch(Map.of("GQ_CONFIG", "c.toml"), dir, daemon));
    assertTrue(ConfigFile.callerMismatch(Map.of("GQ_CONFIG", "other.toml"), dir, daemon)
        .contains("run 'gq daemon restart' here"));
  }
}
