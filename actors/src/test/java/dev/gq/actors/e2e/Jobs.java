package dev.gq.actors.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shell snippets for test jobs, and outside processes that hold fake GPUs. */
final class Jobs {
  private Jobs() {}

  /** Opens a "CUDA context" on every GPU the job was given, from the calling shell's pid. */
  static final String OPEN_CONTEXT = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 100 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done; ";

  /** A process outside gq that holds a context on GPU {@code index} until destroyed. */
  static Process outsider(Gqd g, int index) throws IOException {
    Process p = new ProcessBuilder("sleep", "300").start();
    Files.writeString(g.fake.resolve("procs").resolve(Gqd.uuid(index)).resolve(String.valueOf(p.pid())), "500\n");
    return p;
  }

  static String log(Gqd g, long id) throws IOException {
    Path p = Path.of(g.job(id).get("log_path").asText());
    return Files.exists(p) ? Files.readString(p) : "";
  }
}
