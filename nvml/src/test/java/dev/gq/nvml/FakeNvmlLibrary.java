package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The fake {@code libnvidia-ml.so.1} built from {@code src/test/c/fake_nvml.c} with the C compiler
 * ({@code $CC}, else {@code cc}), once per test JVM, into a temp dir; tests that use it are
 * skipped, with the reason printed, where no compiler exists. {@link Control} steers the loaded fake.
 */
final class FakeNvmlLibrary {

  /** The fake's steering functions; they share state with the NVML functions of the same file. */
  interface Control extends Library {
    void fake_nvml_reset();

    void fake_nvml_fail(String function, int index, int code);

    void fake_nvml_grow(int processes, int repeat);

    int fake_nvml_init_count();

    int fake_nvml_sizeof_process_info();
  }

  private static Path built;
  private static String skipReason;

  private FakeNvmlLibrary() {}

  /** The built library's path; skips the calling test when no C compiler is available. */
  static synchronized Path path() {
    if (built == null && skipReason == null) {
      build();
      if (skipReason != null) System.out.println("skipping NVML binding tests: " + skipReason);
    }
    if (skipReason != null) Assumptions.abort(skipReason);
    return built;
  }

  static Control control() {
    return Native.load(path().toString(), Control.class);
  }

  private static void build() {
    Path source = Path.of(System.getProperty("basedir", "."), "src/test/c/fake_nvml.c");
    try {
      Path dir = Files.createTempDirectory("gq-fake-nvml");
      dir.toFile().deleteOnExit();  // registered first: deleted last, once empty
      Path lib = dir.resolve("libnvidia-ml.so.1");
      Path log = dir.resolve("cc.log");
      String compiler = System.getenv().getOrDefault("CC", "cc");
      Process cc;
      try {
        cc = new ProcessBuilder(compiler, "-shared", "-fPIC", "-O1", "-o", lib.toString(),
            source.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      } catch (IOException e) {
        skipReason = "no C compiler ('" + compiler + "') on this machine: " + e.getMessage();
        return;
      }
      if (!cc.waitFor(60, TimeUnit.SECONDS)) {
        cc.destroyForcibly();
        fail(compiler + " did not finish building the fake NVML library within 60 s");
      }
      if (cc.exitValue() != 0) {
        String output = Files.readString(log, StandardCharsets.UTF_8);
        fail(compiler + " could not build " + source + ":\n" + output);
      }
      lib.toFile().deleteOnExit();
      log.toFile().deleteOnExit();
      built = lib;
    } catch (IOException e) {
      fail("could not build the fake NVML library: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted while building the fake NVML library");
    }
  }
}
