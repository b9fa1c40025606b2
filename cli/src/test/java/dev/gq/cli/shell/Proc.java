package dev.gq.cli.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a program to its end (at most a minute) and keeps its exit code and output. */
record Proc(int code, String out, String err) {

  static Proc run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    // a null value removes the variable
    env.forEach((k, v) -> {
      if (v == null) pb.environment().remove(k);
      else pb.environment().put(k, v);
    });
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Path out = Files.createTempFile("proc", ".out");
    Path err = Files.createTempFile("proc", ".err");
    try {
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("still running after 60 s: " + String.join(" ", command));
      }
      return new Proc(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Whether {@code program} is on this machine's PATH. */
  static boolean installed(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
    }
    return false;
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (String l : out.split("\n")) if (!l.isEmpty()) lines.add(l);
    return lines;
  }
}
