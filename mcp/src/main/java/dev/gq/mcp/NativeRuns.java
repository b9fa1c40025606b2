package dev.gq.mcp;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Each command of {@code gq mcp}'s JVM server run by the gq command itself, the native client, as
 * a process: the same socket, frames and daemon start as a command typed in a shell, with its
 * standard output, standard error and exit code captured. No stream is a terminal and standard
 * input is closed (the launcher variables say so), so the daemon never prompts. A working directory
 * that is gone is passed as the directory it was, which a command that needs it names in one line.
 */
final class NativeRuns implements GqRunner {
  /** Where the launcher script says the native client is. */
  static final String CLIENT_VARIABLE = "GQ_CLIENT_CMD";

  private final String client;
  private final Map<String, String> env;

  NativeRuns(Map<String, String> env) {
    this.client = env.get(CLIENT_VARIABLE);
    Map<String, String> e = new HashMap<>(env);
    e.remove(CLIENT_VARIABLE);
    e.remove("GQ_CLIENT_CWD_GONE");
    e.put("GQ_CLIENT_TTY_IN", "0");
    e.put("GQ_CLIENT_TTY_OUT", "0");
    e.put("GQ_CLIENT_TTY_ERR", "0");
    e.put("GQ_CLIENT_STDIN_CLOSED", "1");
    this.env = Map.copyOf(e);
  }

  @Override
  public Outcome run(List<String> argv, String cwd) {
    if (client == null || client.isBlank())
      return new Outcome(1, "", "gq: " + CLIENT_VARIABLE + " does not name the gq command that runs each tool's command;"
          + " start the server with 'gq mcp'\n");
    List<String> command = new ArrayList<>(argv.size() + 1);
    command.add(client);
    command.addAll(argv);
    ProcessBuilder pb = new ProcessBuilder(command).redirectInput(new File("/dev/null"));
    pb.environment().clear();
    pb.environment().putAll(env);
    if (cwd != null && isDirectory(cwd)) pb.directory(new File(cwd));
    else if (cwd != null) {
      pb.directory(new File("/"));
      pb.environment().put("GQ_CLIENT_CWD_GONE", cwd);
    }
    try {
      Process p = pb.start();
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> text(p.getErrorStream()),
          runnable -> Thread.ofVirtual().start(runnable));
      String out = text(p.getInputStream());
      int code = p.waitFor();
      return new Outcome(code, out, err.join());
    } catch (IOException | UncheckedIOException | CompletionException e) {
      return new Outcome(1, "", "gq: cannot run " + client + ": " + e.getMessage() + "\n");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(1, "", "gq mcp: stopped while " + client + " ran\n");
    }
  }

  private static boolean isDirectory(String cwd) {
    try {
      return Files.isDirectory(Path.of(cwd));
    } catch (InvalidPathException e) {
      return false;
    }
  }

  private static String text(InputStream in) {
    try (in) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return all.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
