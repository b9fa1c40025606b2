package dev.gq.cli;

import dev.gq.api.GqApi;
import dev.gq.api.StartSettings;
import dev.gq.protocol.Release;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * The entry point of the command tree. The daemon calls {@link #run} once per client request with
 * that client's argv, terminal and an API over its actors. Every call has a picocli
 * {@link CommandLine} of its own, built for it or ahead of it ({@link CommandTrees}), so concurrent
 * requests share nothing; the tree holds no static state.
 */
public final class Gq {
  /** gq's release version, from the build (see {@link Release}). */
  public static final String VERSION = Release.VERSION;

  private Gq() {}

  /** Parses and runs one command line; returns the exit code (see {@link ExitCode}). */
  public static int run(List<String> argv, Io io, GqApi api) {
    return run(argv, io, api, CommandTrees.NONE);
  }

  /**
   * As {@link #run(List, Io, GqApi)}, taking the command's tree from {@code trees} when one was built
   * ahead, and having the next one built once the command has run.
   */
  public static int run(List<String> argv, Io io, GqApi api, CommandTrees trees) {
    ErrorHandler handler = new ErrorHandler(io);
    String one = null;
    try {
      List<String> words = shortcut(argv);
      one = only(words);
      CommandTrees.Ready tree = trees.take(one);
      if (tree == null) tree = unbound(one);
      tree.inv().bind(io, api);
      CommandLine cl = configured(tree.line(), io, handler);
      if (!"daemon".equals(one)) noteStartSettings(io, api);
      return cl.execute(words.toArray(String[]::new));
    } catch (RuntimeException | LinkageError e) {
      return handler.internal(e, argv.contains("--verbose"), false);
    } finally {
      io.out().flush();
      io.err().flush();
      trees.refill(one, Gq::unbound);
    }
  }

  /** What commands that describe or run other commands ({@code gq completion}, {@code gq mcp}) use: this tree. */
  private static final CommandRunner RUNNER = new CommandRunner() {
    @Override
    public CommandLine model() {
      return Gq.model();
    }

    @Override
    public int run(List<String> argv, Io io, GqApi api) {
      return Gq.run(argv, io, api);
    }
  };

  /** The tree for command {@code one} alone (null: the whole tree), its invocation not yet bound to a request. */
  static CommandTrees.Ready unbound(String one) {
    Invocation inv = Invocation.unbound(RUNNER);
    return new CommandTrees.Ready(tree(new GqCommand(), inv, one == null ? name -> true : one::equals), inv);
  }

  /** Loads what the first {@code gq top} (its screen library above all) and {@code gq mcp} need, once, when the daemon starts. */
  public static void prepare() {
    TopCommand.warm();
    McpCommand.warm();
  }

  /** Says when the caller's shell sets a start-up setting the running daemon does not have. */
  private static void noteStartSettings(Io io, GqApi api) {
    Map<String, String> daemon = api.startSettings();
    String note = daemon == null ? null : StartSettings.note(io.env(), daemon);
    if (note != null) io.err().println("gq: " + note);
  }

  /**
   * Rewrites the submit shortcut: {@code gq -g N CMD...} (also {@code -gN}, {@code --gpus N},
   * {@code --gpus=N}, and after a leading {@code --verbose}) means {@code gq run -g N CMD...}; so
   * does {@code gq --to TARGET ...}.
   */
  static List<String> shortcut(List<String> argv) {
    int at = !argv.isEmpty() && argv.get(0).equals("--verbose") ? 1 : 0;
    if (argv.size() <= at) return argv;
    String first = argv.get(at);
    boolean gpus = first.startsWith("-g") || first.equals("--gpus") || first.startsWith("--gpus=") || first.equals("--to")
        || first.startsWith("--to=");
    if (!gpus) return argv;
    List<String> rewritten = new ArrayList<>(argv.size() + 1);
    rewritten.addAll(argv.subList(0, at));
    rewritten.add("run");
    rewritten.addAll(argv.subList(at, argv.size()));
    return rewritten;
  }

  /** The command tree as {@link #run} builds it, for reading its model (which command has which option); nothing runs. */
  static CommandLine tree(Io io, GqApi api) {
    return build(new GqCommand(), new Invocation(io, api, RUNNER), new ErrorHandler(io));
  }

  private static CommandLine build(GqCommand top, Invocation inv, ErrorHandler handler) {
    return configured(tree(top, inv, name -> true), inv.io(), handler);
  }

  /** {@code cl} writing to {@code io}, its help fitted to the terminal, its errors reported by {@code handler}. */
  private static CommandLine configured(CommandLine cl, Io io, ErrorHandler handler) {
    cl.setUsageHelpWidth(Math.max(55, Math.min(120, io.width() > 0 ? io.width() : 80)));
    cl.setOut(io.out());
    cl.setErr(io.err());
    cl.setParameterExceptionHandler(handler);
    cl.setExecutionExceptionHandler(handler);
    return cl;
  }

  /**
   * The whole command tree, as completions and manual pages describe it: every command, alias and
   * option, with nothing bound to a terminal or a daemon (nothing in it can run).
   */
  public static CommandLine model() {
    return tree(new GqCommand(), new Invocation(null, null, RUNNER));
  }

  private static CommandLine tree(GqCommand top, Invocation inv) {
    return tree(top, inv, name -> true);
  }

  /**
   * The tree with only the commands {@code wanted} names (by their first name). Building every
   * command costs milliseconds a call; a command line that names a known command gets a tree of that
   * one alone ({@link #only}), the rest (help, a typo, no command) the whole tree.
   */
  private static CommandLine tree(GqCommand top, Invocation inv, Predicate<String> wanted) {
    CommandLine cl = new CommandLine(top);
    CommandList.addTo(cl, inv, wanted);
    addHelpOptions(cl);
    if (wanted.test("help")) cl.addSubcommand(new CommandLine.HelpCommand());
    // Settings on the root reach every subcommand added above.
    cl.setExpandAtFiles(false);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF));
    // Everything from the first positional on is the job's command, options included.
    CommandLine run = cl.getSubcommands().get("run");
    if (run != null) run.setStopAtPositional(true);
    // as with sbatch, the words after SCRIPT are the script's arguments
    CommandLine submit = cl.getSubcommands().get("submit");
    if (submit != null) submit.setStopAtPositional(true);
    return cl;
  }

  /**
   * The one command {@code argv} names as its first word (after a leading {@code --verbose}), or
   * null: no word, an option, help or a word that is no command, which need the whole tree.
   */
  static String only(List<String> argv) {
    int at = !argv.isEmpty() && argv.get(0).equals("--verbose") ? 1 : 0;
    return argv.size() > at ? CommandList.firstName(argv.get(at)) : null;
  }

  /** Gives every subcommand, at any depth, its own -h/--help (the root declares its own). */
  private static void addHelpOptions(CommandLine parent) {
    // distinct: a command is listed once under its name and once under each alias
    for (CommandLine sub : new LinkedHashSet<>(parent.getSubcommands().values())) {
      sub.getCommandSpec().addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
          .description("Show this help and exit.").build());
      addHelpOptions(sub);
    }
  }
}
