package dev.gq.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import picocli.CommandLine;

/**
 * gq's commands: each one's name, aliases and how it is built, in one list that the command tree,
 * the choice of a one-command tree ({@link Gq#only}), help, completions and manual pages all read.
 * Holds no state; every call builds new command objects.
 */
final class CommandList {
  private CommandList() {}

  /** One command of the tree: its name, what builds it, and the other names it answers to. */
  private record Entry(String name, Function<Invocation, Object> make, List<String> aliases) {
    Entry(String name, Function<Invocation, Object> make, String... aliases) {
      this(name, make, List.of(aliases));
    }
  }

  /**
   * Every command, in the order help lists them: the one list of gq's command names and aliases
   * (the tree and {@link Gq#only} both read it). The names users bring from other queues (pueue,
   * task-spooler, Slurm) are aliases.
   */
  private static final List<Entry> COMMANDS = List.of(
      new Entry("run", RunCommand::new),
      new Entry("submit", SubmitCommand::new),
      new Entry("ps", PsCommand::new, "ls", "list", "status"),
      new Entry("show", ShowCommand::new),
      new Entry("eta", EtaCommand::new),
      new Entry("logs", LogsCommand::new, "log"),
      new Entry("gpu", CommandList::gpu),
      new Entry("cancel", CancelCommand::new, "kill"),
      new Entry("events", EventsCommand::new),
      new Entry("groups", GroupsCommand::new),
      new Entry("report", ReportCommand::new),
      new Entry("who", WhoCommand::new),
      new Entry("book", BookCommand::new),
      new Entry("wait", WaitCommand::new),
      new Entry("retry", RetryCommand::new),
      new Entry("preempt", PreemptCommand::new),
      new Entry("resume", ResumeCommand::new),
      new Entry("recover", RecoverCommand::new),
      new Entry("rm", RmCommand::new),
      new Entry("clean", CleanCommand::new),
      new Entry("hold", inv -> described(new JobControlCommand.Hold(inv, true),
          "Keep waiting jobs from starting until 'gq release': some jobs, a --group, or the whole queue (--all).")),
      new Entry("release", inv -> described(new JobControlCommand.Hold(inv, false),
          "Let held jobs start again: some jobs, a --group (also one held by fail-fast), or the whole queue (--all).")),
      new Entry("urgent", JobControlCommand.Urgent::new),
      new Entry("top", TopCommand::new),
      new Entry("web", WebCommand::new),
      new Entry("modify", JobControlCommand.Modify::new),
      new Entry("adopt", AdoptCommand::new),
      new Entry("mcp", McpCommand::new),
      new Entry("daemon", CommandList::daemon),
      new Entry("notify", CommandList::notify),
      new Entry("completion", CompletionCommand::new));

  /** Each command's first name, by every name it answers to. */
  private static final Map<String, String> NAMES = names();

  private static Map<String, String> names() {
    Map<String, String> m = new HashMap<>();
    for (Entry e : COMMANDS) {
      m.put(e.name(), e.name());
      for (String a : e.aliases()) m.put(a, e.name());
    }
    return Map.copyOf(m);
  }

  /** Adds every command {@code wanted} names (by its first name) to {@code cl}, with its aliases. */
  static void addTo(CommandLine cl, Invocation inv, Predicate<String> wanted) {
    for (Entry e : COMMANDS)
      if (wanted.test(e.name())) cl.addSubcommand(e.name(), e.make().apply(inv), e.aliases().toArray(String[]::new));
  }

  /** The first name of the command {@code word} names (itself or an alias), or null when it names none. */
  static String firstName(String word) {
    return NAMES.get(word);
  }

  /**
   * {@code gq daemon restart}: for the daemon it is a stop (the client then always waits for it to
   * have exited and starts a new one), so the stop command serves it under its own name and
   * description, without stop's {@code --[no-]wait}.
   */
  private static CommandLine restart(Invocation inv) {
    CommandLine restart = new CommandLine(new DaemonStopCommand(inv));
    restart.getCommandSpec().name("restart");
    restart.getCommandSpec().remove(restart.getCommandSpec().findOption("--wait"));
    restart.getCommandSpec().usageMessage()
        .description("Stop the daemon and start a new one; running jobs keep running.");
    return restart;
  }

  private static CommandLine gpu(Invocation inv) {
    CommandLine gpu = new CommandLine(new GpuCommand(inv));
    gpu.addSubcommand(new GpuDrainCommand.Drain(inv));
    gpu.addSubcommand(new GpuDrainCommand.Resume(inv));
    return gpu;
  }

  private static CommandLine notify(Invocation inv) {
    CommandLine notify = new CommandLine(new NotifyCommand());
    notify.addSubcommand(new NotifyCommand.Add(inv));
    notify.addSubcommand(new NotifyCommand.ListTargets(inv));
    notify.addSubcommand(new NotifyCommand.Remove(inv));
    notify.addSubcommand(new NotifyCommand.Test(inv));
    return notify;
  }

  private static CommandLine daemon(Invocation inv) {
    CommandLine daemon = new CommandLine(new DaemonCommand());
    daemon.addSubcommand(new DaemonStatusCommand(inv));
    daemon.addSubcommand(new DaemonStopCommand(inv));
    daemon.addSubcommand(new DaemonStartCommand(inv));
    daemon.addSubcommand(new DaemonRunCommand(inv));
    daemon.addSubcommand("restart", restart(inv));
    // the earlier names of 'gq hold --all' and 'gq release --all', hidden
    daemon.addSubcommand("pause", described(new DaemonPauseCommand(inv, true), "Earlier name of 'gq hold --all'."));
    daemon.addSubcommand("resume", described(new DaemonPauseCommand(inv, false), "Earlier name of 'gq release --all'."));
    daemon.addSubcommand("install", described(new DaemonInstallCommand(inv, true),
        "Write a systemd user unit that runs the daemon outside your login session."));
    daemon.addSubcommand("uninstall", described(new DaemonInstallCommand(inv, false),
        "Remove the systemd user unit that 'gq daemon install' wrote."));
    return daemon;
  }

  /** One command class serving two names (hold/release, install/uninstall), each with its own words. */
  private static CommandLine described(Object command, String description) {
    CommandLine line = new CommandLine(command);
    line.getCommandSpec().usageMessage().description(description);
    return line;
  }
}
