package dev.gq.core.notify;

import dev.gq.core.job.PrintableText;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One place notifications go: a {@code desktop} notification, a {@code webhook} (an http or https
 * URL, a secret never shown whole), a {@code command} (argv run as given, never through a shell) or
 * {@code mail} to an address through the local sendmail. {@code on} is what it hears by default,
 * {@code minRuntime} (null: none) keeps the end of a shorter job quiet. {@link #problem} says in one
 * line what is wrong with one. Pure.
 */
public record NotifyTarget(String name, Kind kind, String address, List<String> argv, Set<NoticeKind> on,
    Duration minRuntime) {

  public enum Kind {
    DESKTOP, WEBHOOK, COMMAND, MAIL;

    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The kind a word names; IllegalArgumentException with the one-line refusal otherwise. */
    public static Kind of(String word) {
      for (Kind k : values()) if (k.word().equals(word)) return k;
      throw new IllegalArgumentException("unknown notification target '" + word + "'; use desktop, webhook URL,"
          + " command PROGRAM [ARGS...] or mail ADDRESS");
    }
  }

  public NotifyTarget {
    argv = argv == null ? List.of() : List.copyOf(argv);
    on = on == null ? NoticeKind.DEFAULTS : Set.copyOf(on);
  }

  /** What is wrong with this target, in one line; null when nothing is. */
  public String problem() {
    if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}"))
      return "invalid target name '" + name + "'; use letters, digits, '.', '_' and '-'";
    if (on.contains(NoticeKind.TEST)) return "'test' is not an event to listen for; use failed, end, group, held or drained";
    if (minRuntime != null && minRuntime.isNegative()) return "--min-runtime must not be negative";
    return switch (kind) {
      case DESKTOP -> null;
      case WEBHOOK -> urlProblem(address);
      case COMMAND -> argv.isEmpty() || argv.get(0).isBlank()
          ? "a command target needs a program: gq notify add command PROGRAM [ARGS...]" : null;
      case MAIL -> address == null || !address.matches("[^\\s@,;<>]+@[^\\s@,;<>]+") || PrintableText.hasHidden(address)
          ? "invalid mail address '" + address + "'; give one address such as you@example.org" : null;
    };
  }

  /** The target as {@code gq notify list} shows it: a webhook's URL cut to its scheme and host. */
  public String shown() {
    return switch (kind) {
      case DESKTOP -> "notify-send";
      case WEBHOOK -> masked(address);
      case COMMAND -> String.join(" ", argv);
      case MAIL -> address;
    };
  }

  /** {@code https://hooks.slack.com/…}: all but the scheme and host of a URL hidden. */
  public static String masked(String url) {
    try {
      URI u = new URI(url);
      if (u.getScheme() == null || u.getHost() == null) return "(hidden)";
      return u.getScheme() + "://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + "/…";
    } catch (URISyntaxException e) {
      return "(hidden)";
    }
  }

  private static String urlProblem(String url) {
    String fix = "; give an http:// or https:// URL such as https://hooks.slack.com/services/…";
    if (url == null || url.isBlank()) return "a webhook target needs a URL" + fix;
    try {
      URI u = new URI(url);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if ((!scheme.equals("http") && !scheme.equals("https")) || u.getHost() == null)
        return "invalid webhook URL " + masked(url) + fix;
      if (u.getPort() == 0 || u.getPort() > 65535)
        return "invalid webhook URL " + masked(url) + ": port " + u.getPort() + " is not 1 to 65535" + fix;
      return null;
    } catch (URISyntaxException e) {
      return "invalid webhook URL" + fix;
    }
  }
}
