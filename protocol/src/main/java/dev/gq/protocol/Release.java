package dev.gq.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * gq's release version, as the build's project version wrote it into {@code gq-version.properties}
 * (Maven resource filtering): the one source of it for {@code gq --version}, the daemon's pong and
 * status, and the manual pages. Jar files carry no version in their names, so no script repeats it.
 */
public final class Release {
  /** The version, such as 0.1.0. */
  public static final String VERSION = read();

  private Release() {}

  private static String read() {
    try (InputStream in = Release.class.getResourceAsStream("gq-version.properties")) {
      if (in == null) throw new IllegalStateException("gq-version.properties is missing from gq-protocol; rebuild gq");
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
