package dev.gq.host.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.gq.core.cluster.ClusterConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * gq's configuration file, TOML: {@code $GQ_CONFIG}, else {@code $XDG_CONFIG_HOME/gq/config.toml},
 * else {@code ~/.config/gq/config.toml}. Read when needed (it is small); a missing file is the
 * defaults, a file gq cannot use is one line naming the file and what is wrong. The daemon reads
 * it, with the environment it started with; a caller whose {@code GQ_CONFIG} names another file is
 * told so ({@link #callerMismatch}) rather than silently given the daemon's. Read by the daemon's
 * Slurm bridge and by the commands that choose where a job goes.
 */
public final class ConfigFile {
  private ConfigFile() {}

  private static final TomlMapper TOML = new TomlMapper();
  private static final long MAX_BYTES = 1 << 20;

  /** The file's path for the environment {@code env}. */
  public static Path path(Map<String, String> env) {
    String explicit = env.get("GQ_CONFIG");
    if (explicit != null && !explicit.isBlank()) return Path.of(explicit);
    String xdg = env.get("XDG_CONFIG_HOME");
    if (xdg != null && xdg.startsWith("/")) return Path.of(xdg, "gq", "config.toml");
    return Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config", "gq", "config.toml");
  }

  /**
   * Why the file the caller's {@code GQ_CONFIG} names (relative to the caller's {@code cwd}) is not
   * the one the daemon reads, in one line naming both and {@code gq daemon restart}; null when it
   * is, or when the caller set no {@code GQ_CONFIG}.
   */
  public static String callerMismatch(Map<String, String> callerEnv, Path cwd, Map<String, String> daemonEnv) {
    String mine = callerEnv.get("GQ_CONFIG");
    if (mine == null || mine.isBlank()) return null;
    Path wanted = cwd.resolve(mine).normalize();
    Path read = path(daemonEnv).toAbsolutePath().normalize();
    if (wanted.equals(read)) return null;
    try {
      if (Files.exists(wanted) && Files.exists(read) && Files.isSameFile(wanted, read)) return null;
    } catch (IOException e) {
      // not the same file as far as gq can tell
    }
    return "GQ_CONFIG names " + wanted + " here, but the daemon reads " + read + " (the file of the environment it started"
        + " with); run 'gq daemon restart' here to make it read " + wanted + ", or unset GQ_CONFIG";
  }

  /** The cluster settings of the file {@code env} names; {@link IllegalArgumentException} with the line to show when it cannot be used. */
  public static ClusterConfig cluster(Map<String, String> env) {
    Path file = path(env);
    String text;
    try {
      if (!Files.exists(file)) return ClusterConfig.NONE;
      // a named pipe or device would block the daemon's reading; a symlink to a file is fine
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES)
        throw new IllegalArgumentException("the configuration file " + file + " is not a regular file of at most 1 MiB;"
            + " replace it with one, or point GQ_CONFIG elsewhere");
      text = StandardCharsets.UTF_8.newDecoder()
          .decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
    } catch (NoSuchFileException e) {
      return ClusterConfig.NONE;
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the configuration file " + file + " is not UTF-8 text; save it as UTF-8");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the configuration file " + file + ": " + e.getMessage());
    }
    Map<String, Object> doc;
    try {
      doc = TOML.readValue(text, new TypeReference<Map<String, Object>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + " is not valid TOML: " + e.getOriginalMessage()
          + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")") + "; fix or move it");
    }
    return ClusterConfig.from(doc == null ? Map.of() : doc, file.toString());
  }
}
