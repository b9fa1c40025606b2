package dev.gq.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * gq's commands: in the order help lists them, and how each is built. Each command's name and
 * aliases are those of its class's {@code @Command} annotation, read here, so that they are written
 * once; only the class that serves two commands (hold and release) has their names given here. The
 * command tree, the choice of a one-command tree ({@link Gq#only}), help, completions and manual
 * pages all read this list. Holds no state; every call builds new command objects.
 */
final class CommandList {
  private CommandList() {}

  /** One command of the tree: its name, what builds it, and the other names it answers to. */
  private record Entry(String name, Function<Invocation, Object> make, List<String> aliases) {
    /** The command {@code type} builds: its name and aliases as its annotation gives them. */
    static Entry of(Class<?> type, Function<Invocation, Object> make) {
      Command c = type.getAnnotation(Command.class);
      if (c == null || c.name().equals("<main class>"))
        throw new IllegalStateException(type.getName() + " names no command: give it @Command(name = ...)");
      return new Entry(c.name(), make, List.of(c.aliases()));
    }

    /** A command whose class serves two commands (hold and release), so names neither: its name given here. */
    static Entry named(String name, Function<Invocation, Object> make) {
      return new Entry(name, make, List.of());
    }
  }

  /**
   * Every command, in the order help lists them. The names users bring from other queues (pueue,
   * task-spooler, Slurm) are aliases, in the annotations.
   */
  private static final List<Entry> COMMANDS = List.of(
      Entry.of(RunCommand.class, RunCommand::new),
      Entry.of(SubmitCommand.class, SubmitCommand::new),
      Entry.of(PsCommand.class, PsCommand::new),
      Entry.of(ShowCommand.class, ShowCommand::new),
      Entry.of(EtaCommand.class, EtaCommand::new),
      Entry.of(LogsCommand.class, LogsCommand::new),
      Entry.of(GpuCommand.class, CommandList::gpu),
      Entry.of(CancelCommand.class, CancelCommand::new),
      Entry.of(EventsCommand.class, EventsCommand::new),
      Entry.of(GroupsCommand.class, GroupsCommand::new),
      Entry.of(ReportCommand.class, ReportCommand::new),
      Entry.of(WhoCommand.class, WhoCommand::new),
      Entry.of(BookCommand.class, BookCommand::new),
      Entry.of(WaitCommand.class, WaitCommand::new),
      Entry.of(RetryCommand.class, RetryCommand::new),
      Entry.of(PreemptCommand.class, PreemptCommand::new),
      Entry.of(ResumeCommand.class, ResumeCommand::new),
      Entry.of(RecoverCommand.class, RecoverCommand::new),
      Entry.of(RmCommand.class, RmCommand::new),
      Entry.of(CleanCommand.class, CleanCommand::new),
      Entry.named("hold", inv -> described(new JobControlCommand.Hold(inv, true),
          "Keep waiting jobs from starting until 'gq release': some jobs, a --group, or the whole queue (--all).")),
      Entry.named("release", inv -> described(new JobControlCommand.Hold(inv, false),
          "Let held jobs start again: some jobs, a --group (also one held by fail-fast), or the whole queue (--all).")),
      Entry.of(JobControlCommand.Urgent.class, JobControlCommand.Urgent::new),
      Entry.of(TopCommand.class, TopCommand::new),
      Entry.of(WebCommand.class, WebCommand::new),
      Entry.of(JobControlCommand.Modify.class, JobControlCommand.Modify::new),
      Entry.of(AdoptCommand.class, AdoptCommand::new),
      Entry.of(McpCommand.class, McpCommand::new),
      Entry.of(DaemonCommand.class, CommandList::daemon),
      Entry.of(NotifyCommand.class, CommandList::notify),
      Entry.of(CompletionCommand.class, CompletionCommand::new));

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
    gpu.addSubcommand(new GpuDrainCommand.GpuResume(inv));
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
