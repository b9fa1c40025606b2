package dev.gq.actors.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The jobs of a fault-injection run, drawn from a seed: GPU counts 0–2, durations 0–3 s, mostly
 * exit 0, some exit 1..7, a few killed by a signal; a quarter start a child and a {@code setsid}
 * grandchild which open fake CUDA contexts on the job's GPUs and are waited for, about one in
 * eight leave a child of their session running after the main process has exited (gq must not end
 * the job before that child), and about one in eight start a detached ({@code setsid}) child that
 * opens its context 0.2 s before the main process exits and outlives it (it left the job's session
 * but carries its tag: gq must neither end the job nor hand its GPUs on before it). Each job writes a {@code start} and an {@code end} line to a shared
 * ledger file (under {@code flock}); the end line comes from the job's last process, just before
 * it exits, and the intended exit code is known in advance.
 */
final class ChaosWorkload {
  private static final int[] SIGNALS = {1, 2, 9, 15};

  private ChaosWorkload() {}

  /**
   * One planned job; {@code signal} 0 means it exits with {@code exitCode}; -1 means "none" for
   * the child, grandchild, lingering and detached child durations; {@code daemonPid}, when not 0,
   * is the daemon the job kills with SIGKILL as its very first act (if that daemon launched it).
   */
  record Plan(int n, int gpus, int millis, int exitCode, int signal, int childMillis, int grandchildMillis, int lingerMillis,
      int detachMillis, long daemonPid) {
    boolean children() {
      return childMillis >= 0;
    }

    /** A child of the job's session outlives the main process by this much and writes the end line. */
    boolean lingers() {
      return lingerMillis >= 0;
    }

    /**
     * A {@code setsid} child opens its context 0.2 s before the main process exits, outlives it by
     * this much more, and writes the end line.
     */
    boolean detaches() {
      return detachMillis >= 0;
    }

    /** The idempotency key the job is submitted with, which also finds it after a lost reply. */
    String key() {
      return "chaos-" + n;
    }

    /** What gq must record: the exit code, or 128 + the signal. */
    int expectedCode() {
      return signal > 0 ? 128 + signal : exitCode;
    }

    String expectedState() {
      return expectedCode() == 0 ? "DONE" : "FAILED";
    }

    @Override
    public String toString() {
      return "plan " + n + " (-g " + gpus + ", " + millis + " ms, "
          + (signal > 0 ? "killed by signal " + signal : "exit " + exitCode)
          + (children() ? ", child " + childMillis + " ms + setsid grandchild " + grandchildMillis + " ms" : "")
          + (lingers() ? ", child lingering " + lingerMillis + " ms after it" : "")
          + (detaches() ? ", setsid child opening its context 200 ms before the end, outliving it by "
              + detachMillis + " ms" : "")
          + (daemonPid != 0 ? ", kills daemon " + daemonPid + " when it starts" : "") + ")";
    }
  }

  static List<Plan> plans(Random r, int jobs, int gpus) {
    List<Plan> out = new ArrayList<>();
    for (int n = 0; n < jobs; n++) out.add(plan(r, n, gpus));
    return out;
  }

  static Plan plan(Random r, int n, int gpus) {
    int g = r.nextInt(Math.min(2, gpus) + 1);
    int millis = r.nextInt(3001);
    int roll = r.nextInt(100);
    int code = roll < 70 ? 0 : roll < 92 ? 1 + r.nextInt(7) : 0;
    int signal = roll >= 92 ? SIGNALS[r.nextInt(SIGNALS.length)] : 0;
    int shape = r.nextInt(8);
    boolean children = shape < 2;
    int child = children ? r.nextInt(millis + 1) : -1;
    int grandchild = children ? r.nextInt(millis + 1) : -1;
    int linger = shape == 2 ? 300 + r.nextInt(2701) : -1;
    int detach = shape == 3 ? 300 + r.nextInt(1701) : -1;
    return new Plan(n, g, millis, code, signal, child, grandchild, linger, detach, 0);
  }

  /** The argv to submit: {@code -g N --key K --json bash -c SCRIPT}. */
  static List<String> argv(Plan p, Path ledger) {
    return List.of("-g", String.valueOf(p.gpus()), "--key", p.key(), "--name", p.key(), "--json",
        "bash", "-c", script(p, ledger));
  }

  /** The job's bash script. Contexts are opened from each process's own shell ($$ of that shell). */
  static String script(Plan p, Path ledger) {
    StringBuilder s = new StringBuilder();
    // The shim is the job's parent and the daemon the shim's: kill it before anything else, no fork.
    if (p.daemonPid() != 0)
      s.append("read -r _ _ _ d _ < /proc/$PPID/stat; [ \"$d\" = ").append(p.daemonPid()).append(" ] && kill -9 \"$d\"\n");
    s.append("export L='").append(ledger).append("'\n");
    s.append("rec() { { flock 9; printf '%s\\n' \"$*\" >&9; } 9>>\"$L\"; }\n");
    s.append("ctx() { for u in ${GQ_GPU_UUIDS//,/ }; do echo 100 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done; }\n");
    // A real context goes away with its process; removing the file keeps a recycled pid off the GPU.
    s.append("unctx() { for u in ${GQ_GPU_UUIDS//,/ }; do rm -f \"$GQ_FAKE_NVML/procs/$u/$$\"; done; }\n");
    s.append("export -f rec ctx unctx\n");
    s.append("rec start \"$GQ_JOB_ID\" \"${EPOCHREALTIME/./}000\" \"${GQ_GPU_UUIDS:--}\"\n");
    s.append("ctx\n");
    if (p.children()) {
      s.append("bash -c 'ctx; setsid -w bash -c \"ctx; sleep ").append(seconds(p.grandchildMillis()))
          .append("; unctx\" & sleep ").append(seconds(p.childMillis())).append("; wait; unctx' &\n");
    }
    if (p.lingers()) {
      s.append("bash -c 'ctx; sleep ").append(seconds(p.millis() + p.lingerMillis()))
          .append("; unctx; rec end \"$GQ_JOB_ID\" \"${EPOCHREALTIME/./}000\"' &\n");
    }
    if (p.detaches()) {
      // Its own session and group; no reading before the main process exits need show its context.
      s.append("setsid bash -c 'sleep ").append(seconds(Math.max(0, p.millis() - 200))).append("; ctx; sleep ")
          .append(seconds(200 + p.detachMillis()))
          .append("; unctx; rec end \"$GQ_JOB_ID\" \"${EPOCHREALTIME/./}000\"' &\n");
    }
    s.append("sleep ").append(seconds(p.millis())).append('\n');
    if (p.children()) s.append("wait\n");
    s.append("unctx\n");
    if (!p.lingers() && !p.detaches()) s.append("rec end \"$GQ_JOB_ID\" \"${EPOCHREALTIME/./}000\"\n");
    s.append(p.signal() > 0 ? "kill -" + p.signal() + " $$\n" : "exit " + p.exitCode() + "\n");
    return s.toString();
  }

  private static String seconds(int millis) {
    return String.format(java.util.Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000);
  }
}
