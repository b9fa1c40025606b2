package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The gq command these tests run: the native client the client module builds (client/target/gq). */
final class NativeClient {
  private NativeClient() {}

  static Path binary() {
    Path p = Path.of(System.getProperty("user.dir")).resolve("../client/target/gq").normalize();
    assertTrue(Files.isExecutable(p), p + " is not built; build the client module first (./mvnw package)");
    return p;
  }
}
