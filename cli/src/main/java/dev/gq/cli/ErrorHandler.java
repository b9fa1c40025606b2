package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * The one place where failures become output and exit codes. Usage errors print one line and a
 * pointer to the command's help (exit 2), an unknown word with what was likely meant
 * ({@link UnknownWord}); refusals, by the daemon ({@link ApiException}) or by the
 * command itself ({@link RefusedException}), print {@code gq: MESSAGE} (exit 1); anything else is
 * an internal error, logged for the daemon log, with a stack trace only under {@code --verbose}.
 * A command run with {@code --json} also gets the message as JSON on standard output ({@link JsonError}).
 * A value picocli cannot convert (a word for a number or a state) is said in gq's words.
 * Every line it prints shows control characters escaped ({@link PrintableText#escape}): a message
 * that quotes what the user typed ({@code gq $'sub\nmit'}) stays one line and cannot drive the
 * terminal.
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
      io.err().println("gq: " + PrintableText.escape(String.valueOf(ex.getMessage())));
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
    err.println("gq: " + PrintableText.escape(message));
    if (verbose) ex.printStackTrace(err);
    if (json) io.out().println(JsonError.line(message, ExitCode.FAILED));
    return ExitCode.FAILED;
  }

  private int usage(CommandLine cl, String message, boolean json) {
    PrintWriter err = io.err();
    err.println("gq: " + PrintableText.escape(String.valueOf(message)));
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
    boolean conversion = ex.getCause() instanceof CommandLine.TypeConversionException;
    if (conversion && wholeNumber(ex.getArgSpec())) return notANumber(ex.getArgSpec(), ex.getValue());
    if (conversion && ex.getArgSpec() instanceof OptionSpec o && valueType(o).isEnum()) return notOneOf(o, ex.getValue());
    String msg = ex.getMessage();
    if (msg == null || msg.isEmpty()) return "invalid command line";
    return Character.toLowerCase(msg.charAt(0)) + msg.substring(1);
  }

  /** Whether {@code arg} takes whole numbers (int or long, alone or in a list). */
  private static boolean wholeNumber(ArgSpec arg) {
    if (arg == null) return false;
    Class<?> t = valueType(arg);
    return t == int.class || t == Integer.class || t == long.class || t == Long.class;
  }

  /** The type of one of {@code arg}'s values (a list's element type). */
  private static Class<?> valueType(ArgSpec arg) {
    return arg.auxiliaryTypes().length > 0 ? arg.auxiliaryTypes()[0] : arg.type();
  }

  /** Picocli says "'x' is not a long"; gq names what was expected: a job id, a PID, an option's number. */
  private static String notANumber(ArgSpec arg, String value) {
    if (arg instanceof OptionSpec o) return o.longestName() + " takes a whole number, not '" + value + "'";
    String label = arg.paramLabel().replaceAll("[<>]", "");
    if (label.equals("JOB")) return "invalid job id '" + value + "'; use a number like 12";
    return "invalid " + label + " '" + value + "'; use a whole number";
  }

  /** Picocli says "expected one of [...] (case-insensitive) but was 'x'"; gq names the option and its words. */
  private static String notOneOf(OptionSpec o, String value) {
    List<String> words = Arrays.stream(valueType(o).getEnumConstants()).map(String::valueOf).toList();
    return o.longestName() + " takes one of " + String.join(", ", words) + ", not '" + value + "'";
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) return true;
    }
    return false;
  }
}
