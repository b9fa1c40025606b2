package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The fake {@code libnvidia-ml.so.1} built from {@code src/test/c/fake_nvml.c} with the C compiler
 * ({@code $CC}, else {@code cc}), once per test JVM, into a temp dir; tests that use it are
 * skipped, with the reason printed, where no compiler exists. It is compiled against the official
 * {@code nvml.h} (Debian's {@code libnvidia-ml-dev}; {@code $NVML_INCLUDE_DIR} names another
 * folder), so its signatures and structs are the driver's; where the header is missing it falls
 * back to declarations of its own and says so. {@link Control} steers the loaded fake.
 */
final class FakeNvmlLibrary {

  /** The fake's steering functions; they share state with the NVML functions of the same file. */
  interface Control extends Library {
    void fake_nvml_reset();

    void fake_nvml_fail(String function, int index, int code);

    void fake_nvml_grow(int processes, int repeat);

    int fake_nvml_init_count();

    void fake_nvml_xid(int index, long xid);

    void fake_nvml_health(int index, long ecc, int retiredPending, int remapFailed, int lost);

    int fake_nvml_event_sets_open();

    int fake_nvml_sizeof_process_info();

    int fake_nvml_official_header();

    long fake_nvml_layout(String what);
  }

  /** Where the official header is looked for, first found wins. */
  private static final List<String> HEADER_DIRS =
      List.of("/usr/include", "/usr/local/cuda/include", "/usr/include/nvidia/gdk");

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

  /** The folder holding the official {@code nvml.h}, or null when there is none. */
  static Path headerDir() {
    String env = System.getenv("NVML_INCLUDE_DIR");
    List<String> dirs = env == null || env.isBlank() ? HEADER_DIRS : List.of(env);
    for (String dir : dirs) {
      if (Files.isRegularFile(Path.of(dir, "nvml.h"))) return Path.of(dir);
    }
    return null;
  }

  private static void build() {
    Path source = Path.of(System.getProperty("basedir", "."), "src/test/c/fake_nvml.c");
    try {
      Path dir = Files.createTempDirectory("gq-fake-nvml");
      dir.toFile().deleteOnExit();  // registered first: deleted last, once empty
      Path lib = dir.resolve("libnvidia-ml.so.1");
      Path log = dir.resolve("cc.log");
      String compiler = System.getenv().getOrDefault("CC", "cc");
      List<String> command = new ArrayList<>(List.of(compiler, "-shared", "-fPIC", "-O1", "-Wall",
          "-o", lib.toString(), source.toString()));
      Path headers = headerDir();
      if (headers != null) {
        command.add("-I" + headers);
      } else {
        command.add("-DGQ_FAKE_NVML_OWN_TYPES");
        System.out.println("nvml.h not found (install libnvidia-ml-dev, or set NVML_INCLUDE_DIR):"
            + " the fake NVML library uses its own declarations; the layout check is skipped");
      }
      Process cc;
      try {
        cc = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
