package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.api.NotifyApi;
import dev.gq.core.job.Durations;
import dev.gq.core.job.PrintableText;
import dev.gq.core.notify.NoticeKind;
import dev.gq.core.notify.NotifyTarget;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq notify}: the places notifications go (desktop, webhook, command, mail) and what each
 * hears. {@code add} checks a target and stores it (refusing an unknown kind, a bad URL, a program
 * that cannot be found in one line), {@code list} shows them with their deliveries (a webhook's URL
 * cut to its host), {@code rm} removes one, {@code test} sends each a test message and says how it
 * went. Alone it is a usage error.
 */
@Command(name = "notify", description = "Be told when jobs fail, a sweep finishes or the queue drains: add, list, remove and test targets.")
final class NotifyCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("say what to do: gq notify add, list, rm or test");
  }

  @Command(name = "add", description = "Add a target: desktop | webhook URL | command [--] PROGRAM [ARGS...] | mail ADDRESS.")
  static final class Add implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(index = "0", paramLabel = "KIND", description = "desktop, webhook, command or mail.")
    String kind;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The webhook's URL, the command's program and arguments, or the mail address.")
    List<String> args = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME", description = "Name of the target (default: its kind, then kind-2, ...).")
    String name;

    @Option(names = "--on", paramLabel = "EVENTS",
        description = "What it hears: failed, end, group, held, drained, over_memory, unhealthy, idle, all or none, comma-separated (default: failed,group,held,drained,over_memory,unhealthy,idle).")
    String on;

    @Option(names = "--min-runtime", paramLabel = "DURATION", description = "Say nothing of the end of a job that ran less than this (e.g. 10m).")
    String minRuntime;

    Add(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      NotifyTarget t = target();
      String problem = t.problem();
      if (problem != null) throw new UsageException(problem);
      NotifyTarget stored = inv.api().notifications().add(t);
      String missing = inv.api().notifications().unsendable(stored);
      if (missing != null) inv.io().err().println("gq: warning: " + missing);
      inv.io().out().println("added notification target " + stored.name() + ": " + stored.kind().word() + " " + PrintableText.escape(stored.shown())
          + " (on " + NoticeKind.words(stored.on()) + minimum(stored) + "); try it with 'gq notify test " + stored.name() + "'");
      return ExitCode.OK;
    }

    private NotifyTarget target() {
      NotifyTarget.Kind k;
      try {
        k = NotifyTarget.Kind.of(kind);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      Set<NoticeKind> events;
      try {
        events = on == null ? NoticeKind.DEFAULTS : NoticeKind.parse(on);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      Duration min = DurationOption.parse("--min-runtime", minRuntime);
      return switch (k) {
        case DESKTOP -> { none(k); yield new NotifyTarget(name, k, null, null, events, min); }
        case WEBHOOK -> new NotifyTarget(name, k, one(k, "URL"), null, events, min);
        case MAIL -> new NotifyTarget(name, k, one(k, "ADDRESS"), null, events, min);
        case COMMAND -> new NotifyTarget(name, k, null, program(), events, min);
      };
    }

    private void none(NotifyTarget.Kind k) {
      if (!args.isEmpty()) throw new UsageException("a " + k.word() + " target takes no argument; drop '" + args.get(0) + "'");
    }

    private String one(NotifyTarget.Kind k, String what) {
      if (args.size() != 1) throw new UsageException("a " + k.word() + " target takes one " + what + ": gq notify add " + k.word() + " " + what);
      return args.get(0);
    }

    /** The command's argv, its program made absolute when given as a path; refused when it cannot be found. */
    private List<String> program() {
      if (args.isEmpty()) throw new UsageException("a command target needs a program: gq notify add command [--] PROGRAM [ARGS...]");
      List<String> argv = new ArrayList<>(args);
      String p = argv.get(0);
      if (p.contains("/")) {
        Path abs = inv.io().cwd().resolve(p).toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs) || !Files.isExecutable(abs))
          throw new UsageException("program " + p + " is not an executable file; give the path of one (chmod +x it first)");
        argv.set(0, abs.toString());
      } else if (!onPath(p)) {
        throw new UsageException("program " + p + " is not on your PATH; give its full path");
      }
      return argv;
    }

    private boolean onPath(String program) {
      for (String dir : inv.io().env().getOrDefault("PATH", "").split(":"))
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
      return false;
    }
  }

  @Command(name = "list", aliases = "ls", description = "List the targets, what each hears and how its deliveries went.")
  static final class ListTargets implements Callable<Integer> {
    private final Invocation inv;

    @Option(names = "--json", description = "Print the targets as a JSON array (a webhook's URL cut to its host).")
    boolean json;

    ListTargets(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      List<NotifyApi.TargetView> targets = inv.api().notifications().targets();
      PrintWriter out = inv.io().out();
      if (json) out.println(JsonView.pretty(json(targets)));
      else if (targets.isEmpty()) out.println("No notification targets; add one with 'gq notify add desktop'.");
      else table(targets).print(out, TextTable.width(inv.io()));
      return ExitCode.OK;
    }

    private static TextTable table(List<NotifyApi.TargetView> targets) {
      TextTable t = new TextTable(List.of("NAME", "KIND", "TARGET", "ON", "MIN-RUNTIME", "SENT", "FAILED", "LAST ERROR"));
      for (NotifyApi.TargetView v : targets) {
        NotifyTarget g = v.target();
        t.add(List.of(g.name(), g.kind().word(), g.shown(), NoticeKind.words(g.on()),
            g.minRuntime() == null ? "-" : Durations.format(g.minRuntime()), String.valueOf(v.delivered()),
            String.valueOf(v.failed()), v.lastError() == null ? "-" : v.lastError()));
      }
      return t;
    }

    private static ArrayNode json(List<NotifyApi.TargetView> targets) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      for (NotifyApi.TargetView v : targets) {
        NotifyTarget g = v.target();
        ObjectNode n = a.addObject().put("name", g.name()).put("kind", g.kind().word()).put("target", g.shown());
        ArrayNode on = n.putArray("on");
        for (NoticeKind k : NoticeKind.values()) if (g.on().contains(k)) on.add(k.word());
        n.put("min_runtime_seconds", g.minRuntime() == null ? null : g.minRuntime().toSeconds());
        n.put("delivered", v.delivered()).put("failed", v.failed()).put("last_error", v.lastError())
            .put("last_error_time", v.lastErrorAt() == null ? null : v.lastErrorAt().toString());
      }
      return a;
    }
  }

  @Command(name = "rm", aliases = "remove", description = "Remove a target.")
  static final class Remove implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(paramLabel = "NAME", description = "The target's name, as 'gq notify list' shows it.")
    String name;

    Remove(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      if (!inv.api().notifications().remove(name))
        throw new RefusedException("no notification target named " + name + "; 'gq notify list' shows them");
      inv.io().out().println("removed notification target " + name);
      return ExitCode.OK;
    }
  }

  @Command(name = "test", description = "Send a test message to every target (or one) and say whether each was delivered.")
  static final class Test implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(paramLabel = "NAME", arity = "0..1", description = "Only this target.")
    String name;

    Test(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      List<NotifyApi.TestResult> results = inv.api().notifications().test(name);
      if (results.isEmpty())
        throw new RefusedException(name == null ? "no notification targets; add one with 'gq notify add desktop'"
            : "no notification target named " + name + "; 'gq notify list' shows them");
      boolean allOk = true;
      for (NotifyApi.TestResult r : results) {
        allOk &= r.error() == null;
        inv.io().out().println(r.name() + " (" + PrintableText.escape(r.shown()) + "): " + (r.error() == null ? "delivered" : "FAILED: " + r.error()));
      }
      return allOk ? ExitCode.OK : ExitCode.FAILED;
    }
  }

  /**
   * The lines {@code gq daemon status} shows: how many targets, each failing one with its count and
   * last error, each slow one with its messages not yet sent, a notifier cursor that cannot be
   * stored, and how many stored events wait for their messages; none when the daemon has no notifier.
   */
  static List<String> status(GqApi api) {
    List<String> out = new ArrayList<>();
    try {
      NotifyApi n = api.notifications();
      List<NotifyApi.TargetView> targets = n.targets();
      long failing = targets.stream().filter(v -> v.failed() > 0).count();
      long slow = targets.stream().filter(v -> v.unsent() > 0).count();
      out.add("Notify:    " + (targets.isEmpty() ? "no targets (add one with 'gq notify add desktop')"
          : targets.size() + (targets.size() == 1 ? " target" : " targets") + (failing == 0 ? ", none failing" : ", " + failing + " failing")
              + (slow == 0 ? "" : ", " + slow + " slow")));
      for (NotifyApi.TargetView v : targets) {
        if (v.failed() > 0)
          out.add("           " + v.target().name() + ": " + v.failed() + " failed (" + v.delivered() + " delivered); last at "
              + v.lastErrorAt() + ": " + v.lastError());
        if (v.unsent() > 0)
          out.add("           " + v.target().name() + ": slow: " + v.unsent() + " message(s) not yet sent, the oldest for "
              + Durations.format(v.unsentFor().withNanos(0)) + "; other targets are not held back");
      }
      String cursor = n.cursorProblem();
      if (cursor != null) out.add("           " + cursor);
      long behind = n.behind();
      if (behind > 0) out.add("           " + behind + " stored event(s) not yet looked at for notifications");
    } catch (ApiException e) {
      // an older daemon without notifications: nothing to say
    }
    return out;
  }

  private static String minimum(NotifyTarget t) {
    return t.minRuntime() == null ? "" : ", ends of jobs shorter than " + Durations.format(t.minRuntime()) + " left out";
  }
}
