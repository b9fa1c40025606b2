package dev.gq.actors.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gq.core.job.Durations;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Says in words why a delivery or a file write failed ("connection refused by 127.0.0.1:9",
 * "notify-send is not installed here", "permission denied"), from the exception the JDK threw:
 * its class and text never reach a message. A webhook is named by its host and port only. Pure.
 */
final class NoticeFailures {
  /** The errno in "error=2, No such file..." (JDK 21) or "Exec failed, error: 2 (No such file...)" (later JDKs). */
  private static final Pattern ERRNO = Pattern.compile("error[=:] ?(\\d+)");

  private NoticeFailures() {}

  /** Why a program could not be started ({@code ProcessBuilder.start}'s "Cannot run program ... error=2, ..."). */
  static String notStarted(String program, IOException e) {
    if (e.getMessage() != null && e.getMessage().contains("No such file")) return notStarted(program, "2");
    if (e.getMessage() != null && e.getMessage().contains("Permission denied")) return notStarted(program, "13");
    Matcher m = ERRNO.matcher(String.valueOf(e.getMessage()));
    return notStarted(program, m.find() ? m.group(1) : "");
  }

  private static String notStarted(String program, String errno) {
    return switch (errno) {
      case "2" -> program.contains("/") ? program + " does not exist (any more); add the target again with the program's path"
          : program + " is not installed here (not found on the daemon's PATH)" + installHint(program);
      case "13" -> program + " cannot be run: permission denied";
      case "8" -> program + " cannot be run: it is not a program this machine can start (a script without its #! line?)";
      default -> program + " cannot be run" + (errno.isEmpty() ? "" : " (system error " + errno + ")");
    };
  }

  private static String installHint(String program) {
    return program.endsWith("notify-send") ? "; install it (Debian/Ubuntu: sudo apt install libnotify-bin)" : "";
  }

  /** What went wrong in a webhook's exchange with {@code uri}, after the word "webhook HOST". */
  static String exchange(Throwable e, URI uri, Duration timeout) {
    String at = uri.getHost() + ":" + port(uri);
    String all = chain(e);
    if (has(e, HttpConnectTimeoutException.class))
      return "cannot be reached: no connection to " + at + " within " + Durations.format(timeout);
    if (has(e, HttpTimeoutException.class))
      return "did not answer within " + Durations.format(timeout);
    if (has(e, UnresolvedAddressException.class) || has(e, UnknownHostException.class))
      return "cannot be reached: host name " + uri.getHost() + " not found";
    if (has(e, NoRouteToHostException.class) || all.contains("no route to host") || all.contains("network is unreachable"))
      return "cannot be reached: no route to " + at;
    if (has(e, SSLException.class))
      return "cannot be reached: the TLS handshake with " + at + " failed (is its certificate trusted on this machine?)";
    // a connect that failed for none of the reasons above: nothing listens there
    if (all.contains("connection refused") || has(e, ConnectException.class))
      return "cannot be reached: connection refused by " + at;
    if (all.contains("reset") || all.contains("closed") || all.contains("eof"))
      return "closed the connection before its answer (" + at + ")";
    return "cannot be reached: the connection to " + at + " failed";
  }

  /** Why a file could not be written, in words: "permission denied", "no space left on device". */
  static String write(IOException e) {
    if (e instanceof AccessDeniedException) return "permission denied";
    if (e instanceof NoSuchFileException) return "its directory does not exist";
    if (e instanceof DirectoryNotEmptyException f) return "a directory is in the way (" + f.getFile() + ")";
    if (e instanceof FileAlreadyExistsException f) return "a file is in the way (" + f.getFile() + ")";
    if (e instanceof NotDirectoryException) return "a part of its path is not a directory";
    if (e instanceof FileSystemException f)
      return f.getReason() != null ? f.getReason().toLowerCase(Locale.ROOT) : "the file system refused the write";
    String m = e.getMessage();
    return m == null || m.isBlank() ? "the write failed" : m.lines().findFirst().orElse("").toLowerCase(Locale.ROOT);
  }

  /** Why a file of gq's could not be read: not JSON (with the line), a value it refuses (its own line), or the file system's words. */
  static String read(Exception e) {
    if (e instanceof JsonProcessingException j)
      return "it is not valid JSON" + (j.getLocation() == null ? "" : " (line " + j.getLocation().getLineNr() + ")");
    if (e instanceof IOException io) return write(io).replace("write", "read");
    String m = e.getMessage();
    return m == null ? "it holds a value gq does not know" : m.lines().findFirst().orElse("");
  }

  private static int port(URI uri) {
    if (uri.getPort() != -1) return uri.getPort();
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private static boolean has(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) if (type.isInstance(t)) return true;
    return false;
  }

  private static String chain(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) if (t.getMessage() != null) sb.append(t.getMessage()).append(' ');
    return sb.toString().toLowerCase(Locale.ROOT);
  }
}
