package dev.gq.cli;

import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one place where failures become output and exit codes. Usage errors print one line and a
 * pointer to the command's help (exit 2), an unknown word with what was likely meant
 * ({@link UnknownWord}); refusals, by the daemon ({@link ApiException}) or by the
 * command itself ({@link RefusedException}), print {@code gq: MESSAGE} (exit 1); anything else is
 * an internal error, logged for the daemon log, with a stack trace only under {@code --verbose}.
 * A command run with {@code --json} also gets the message as JSON on standard output ({@link JsonError}).
 */
final class ErrorHandler implements IParameterExceptionHandler, IExecutionExceptionHandler {
  private static final System.Logger LOG = System.getLogger("dev.gq.cli");
  private final Io io;

  ErrorHandler(Io io) {
    this.io = io;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    return usage(ex.getCommandLine(), describe(ex), JsonError.asked(ex, args));
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    boolean json = JsonError.asked(parsed);
    if (ex instanceof UsageException) return usage(cl, ex.getMessage(), json);
    if (ex instanceof ParameterException pe) return usage(pe.getCommandLine(), describe(pe), json);
    if (ex instanceof RefusedException || ex instanceof ApiException) {
      io.err().println("gq: " + ex.getMessage());
      if (json) io.out().println(JsonError.line(ex.getMessage(), ExitCode.FAILED));
      return ExitCode.FAILED;
    }
    return internal(ex, verbose(parsed), json);
  }

  /** Reports a failure nobody planned for: one line for the user, the details for the log. */
  int internal(Throwable ex, boolean verbose, boolean json) {
    LOG.log(Level.ERROR, "command failed unexpectedly", ex);
    PrintWriter err = io.err();
    String message = "internal error: " + ex + "; see the daemon log";
    err.println("gq: " + message);
    if (verbose) ex.printStackTrace(err);
    if (json) io.out().println(JsonError.line(message, ExitCode.FAILED));
    return ExitCode.FAILED;
  }

  private int usage(CommandLine cl, String message, boolean json) {
    PrintWriter err = io.err();
    err.println("gq: " + message);
    // a hidden command (an old word kept to say what replaced it) has no help of its own
    String name = cl == null || cl.getCommandSpec().usageMessage().hidden() ? "gq" : cl.getCommandSpec().qualifiedName();
    err.println("Try '" + name + " --help'.");
    if (json) io.out().println(JsonError.line(message, ExitCode.USAGE));
    return ExitCode.USAGE;
  }

  private String describe(ParameterException ex) {
    String d = describeWord(ex);
    // 'gq submit python train.py', 'gq submit -- bash -c ...': a command where a script belongs
    if (ex instanceof UnmatchedArgumentException && ex.getCommandLine() != null
        && "submit".equals(ex.getCommandLine().getCommandName()) && !d.contains("did you mean"))
      return d + "; gq submit queues one script: to queue a command, use 'gq run CMD...' or 'gq -g N CMD...'";
    return d;
  }

  private String describeWord(ParameterException ex) {
    if (ex instanceof UnmatchedArgumentException un && !un.getUnmatched().isEmpty()) {
      String first = un.getUnmatched().get(0);
      CommandLine cl = ex.getCommandLine();
      if (first.startsWith("-") && first.length() > 1) return UnknownWord.option(first, cl);
      if (cl.getSubcommands().isEmpty()) return "unexpected argument '" + first + "'";
      return UnknownWord.command(first, cl, io.env(), io.cwd());
    }
    String msg = ex.getMessage();
    if (msg == null || msg.isEmpty()) return "invalid command line";
    return Character.toLowerCase(msg.charAt(0)) + msg.substring(1);
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) return true;
    }
    return false;
  }
}
