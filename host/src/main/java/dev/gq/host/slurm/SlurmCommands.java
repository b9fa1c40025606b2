package dev.gq.host.slurm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's commands (sbatch, squeue, scontrol, scancel) for one profile: here, or on a login
 * node through {@code ssh -o BatchMode=yes HOST} when the profile names one. Each call has a time
 * limit and gives back its exit status and output; a command that cannot start, or outlasts its
 * limit (killed), is an {@link IOException} with a one-line reason.
 */
public final class SlurmCommands {
  private final String host;
  private final Duration limit;

  /** {@code host}: the ssh host of a login node, null to run the commands here. */
  public SlurmCommands(String host, Duration limit) {
    this.host = host;
    this.limit = limit;
  }

  /** What one command printed and how it ended. */
  public record Result(int status, String out, String err) {
    public boolean ok() {
      return status == 0;
    }

    /** The first line of stderr (else stdout), for a message. */
    public String firstLine() {
      String t = (err.isBlank() ? out : err).strip();
      int nl = t.indexOf('\n');
      return nl < 0 ? t : t.substring(0, nl);
    }
  }

  /** Runs {@code argv} (a Slurm command and its arguments). */
  public Result run(List<String> argv) throws IOException {
    List<String> cmd = new ArrayList<>();
    if (host != null) {
      cmd.addAll(List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", host, "--"));
      for (String a : argv) cmd.add(quote(a));
    } else cmd.addAll(argv);
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    } catch (IOException e) {
      throw new IOException("cannot run " + cmd.get(0) + ": " + e.getMessage(), e);
    }
    // read both streams while it runs, so that a large answer cannot block it
    var out = read(p.getInputStream());
    var err = read(p.getErrorStream());
    try {
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IOException(argv.get(0) + " did not answer within " + limit.toSeconds() + " s");
      }
      return new Result(p.exitValue(), out.get(), err.get());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(argv.get(0) + " was interrupted", e);
    } catch (ExecutionException e) {
      throw new IOException("cannot read what " + argv.get(0) + " printed: " + e.getCause(), e);
    }
  }

  private static CompletableFuture<String> read(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    }, Thread::startVirtualThread);
  }

  /** One word for the login node's shell. */
  static String quote(String s) {
    return s.matches("[A-Za-z0-9_./:=,%@+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
