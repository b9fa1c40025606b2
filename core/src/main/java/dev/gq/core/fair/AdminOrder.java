package dev.gq.core.fair;

import dev.gq.core.job.PrintableText;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an admin of a shared machine orders every user's gq to do, as one file in the lease
 * directory ({@code admin-<uid>-<16 hex>.admin}, a {@code gq-admin 1} header and key=value lines):
 * keep a GPU from every user's new jobs ({@code drain=UUID}, {@code reason=TEXT}), or stop counting
 * a booking ({@code cancel=ID}). An order counts only when the file's owner, as lstat tells it, is
 * root or a uid whose login name is among the policy's {@code admins}; what the file says of its
 * author is never read. {@code owner} is the file's owner uid and {@code ownerName} that uid's
 * login name from the system's user database. Pure.
 */
public record AdminOrder(String file, int owner, String ownerName, String drain, String reason, String cancel) {

  public static final String HEADER = "gq-admin 1";
  public static final String SUFFIX = ".admin";
  public static final int MAX_BYTES = 1024;

  /** Whether {@code name} is an admin order file's name (the only files the readers open). */
  public static boolean isOrderFile(String name) {
    return name.matches("admin-\\d{1,10}-[0-9a-f]{16}\\.admin");
  }

  /** The name an order of {@code uid}'s takes, with {@code random} 16 hex digits. */
  public static String fileName(int uid, String random) {
    return "admin-" + uid + "-" + random + SUFFIX;
  }

  /** The text of an order to drain {@code gpu} for {@code reason}. */
  public static String drainText(String gpu, String reason) {
    return HEADER + "\ndrain=" + gpu + "\nreason=" + reason + "\n";
  }

  /** The text of an order to cancel booking {@code id}. */
  public static String cancelText(String id) {
    return HEADER + "\ncancel=" + id + "\n";
  }

  /** The order {@code text} states, from file {@code file} owned by {@code owner} ({@code ownerName}); empty when unsound. */
  public static Optional<AdminOrder> parse(String file, int owner, String ownerName, String text) {
    if (text == null || !text.startsWith(HEADER + "\n") || !text.endsWith("\n")) return Optional.empty();
    Map<String, String> kv = new LinkedHashMap<>();
    for (String line : text.substring(HEADER.length() + 1).split("\n")) {
      int eq = line.indexOf('=');
      if (eq < 1 || kv.put(line.substring(0, eq), line.substring(eq + 1)) != null) return Optional.empty();
    }
    String drain = kv.get("drain"), cancel = kv.get("cancel"), reason = kv.getOrDefault("reason", "");
    boolean drains = drain != null && drain.matches("[A-Za-z0-9/_.-]{1,128}") && kv.size() == (kv.containsKey("reason") ? 2 : 1)
        && reason.length() <= 200;
    boolean cancels = cancel != null && cancel.matches("[0-9a-z]{4,16}") && kv.size() == 1;
    if (drains == cancels) return Optional.empty();
    return Optional.of(new AdminOrder(file, owner, ownerName, drain, drains ? PrintableText.escape(reason) : null, cancel));
  }

  /** Why this order does not count under {@code policy}; null when its owner is root or an admin. */
  public String untrusted(Policy policy) {
    if (owner == 0 || (ownerName != null && policy.admin(ownerName))) return null;
    return "its owner " + who() + " is neither root nor one of the policy's admins (admins in /etc/gq/policy.toml)";
  }

  /** "alice (uid 1000)", or "uid 1000" when the uid has no login name. */
  public String who() {
    return ownerName == null || ownerName.equals(Integer.toString(owner)) ? "uid " + owner : ownerName + " (uid " + owner + ")";
  }

  /** The orders in force, and file name → why for each that is not. */
  public record Standing(Map<String, AdminOrder> drains, Map<String, String> cancelled, Map<String, String> notCounted) {}

  /**
   * The orders of {@code read} that count under {@code policy}: GPU UUID → the first drain of it
   * (by file name), booking id → the line naming the admin who cancelled it.
   */
  public static Standing standing(List<AdminOrder> read, Policy policy) {
    Map<String, AdminOrder> drains = new LinkedHashMap<>();
    Map<String, String> cancelled = new LinkedHashMap<>();
    Map<String, String> notCounted = new LinkedHashMap<>();
    for (AdminOrder o : read.stream().sorted(Comparator.comparing(AdminOrder::file)).toList()) {
      String why = o.untrusted(policy);
      if (why != null) notCounted.put(o.file(), why);
      else if (o.drain() != null) drains.putIfAbsent(o.drain(), o);
      else cancelled.putIfAbsent(o.cancel(), "cancelled by " + o.who() + ", an admin (" + o.file() + ")");
    }
    return new Standing(drains, cancelled, notCounted);
  }

  /** "drained for every user's gq by alice (uid 1000): maintenance". */
  public String drainLine() {
    return "drained for every user's gq by " + who() + (reason == null || reason.isEmpty() ? "" : ": " + reason);
  }
}
