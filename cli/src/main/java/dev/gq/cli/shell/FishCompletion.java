package dev.gq.cli.shell;

import dev.gq.cli.shell.CommandTree.Kind;
import dev.gq.cli.shell.CommandTree.Option;
import dev.gq.cli.shell.CommandTree.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The fish completions for gq, written from the {@link CommandTree}: a function that walks the
 * words before the cursor down the tree (aliases and the {@code gq -g N} shortcut included), and
 * one {@code complete} line per subcommand and option, with its description, conditioned on that
 * walk; files for scripts, and after {@code gq run} the program and then its own completions.
 */
public final class FishCompletion {
  private FishCompletion() {}

  public static String script(CommandTree root) {
    StringBuilder sb = new StringBuilder();
    sb.append("# fish completion for gq. Generated from gq's command tree ('gq completion fish'); do not edit.\n\n");
    sb.append("# The command below path $argv[1] ('' is gq itself) that word $argv[2] names.\n");
    sb.append("function __gq_child\n    switch \"$argv[1]/$argv[2]\"\n");
    for (CommandTree c : root.all()) {
      for (CommandTree child : c.children()) {
        List<String> patterns = child.names().stream().map(n -> Shell.fishQuote(path(c) + "/" + n)).toList();
        sb.append("        case ").append(String.join(" ", patterns)).append("\n            echo ")
            .append(Shell.fishQuote(path(child))).append("\n");
      }
    }
    sb.append("    end\nend\n\n");
    sb.append("# The options of command path $argv[1] that take a value.\n");
    sb.append("function __gq_valued\n    switch \"$argv[1]\"\n");
    for (CommandTree c : root.all()) {
      List<String> valued = new ArrayList<>();
      for (Option o : c.options()) if (o.takesValue()) valued.addAll(o.names());
      if (c == root) valued.addAll(List.of("-g", "--gpus"));
      if (valued.isEmpty()) continue;
      sb.append("        case ").append(Shell.fishQuote(path(c))).append("\n            printf '%s\\n' ")
          .append(String.join(" ", valued.stream().map(Shell::fishQuote).toList())).append("\n");
    }
    sb.append("    end\nend\n\n");
    sb.append(FUNCTIONS);
    sb.append("complete -c gq -f\n");
    for (CommandTree c : root.all()) lines(sb, c);
    return sb.toString();
  }

  private static String path(CommandTree c) {
    return String.join(" ", c.path());
  }

  private static void lines(StringBuilder sb, CommandTree c) {
    String at = Shell.fishQuote("__gq_at " + Shell.fishQuote(path(c)));
    Value arg = c.positional();
    boolean program = arg != null && arg.kind() == Kind.PROGRAM;
    // options go before a program's words; elsewhere they may follow arguments too
    String in = program ? at : Shell.fishQuote("__gq_in " + Shell.fishQuote(path(c)));
    for (CommandTree child : c.children()) {
      for (String n : child.names()) {
        sb.append("complete -c gq -n ").append(at).append(" -a ").append(Shell.fishQuote(n))
            .append(" -d ").append(Shell.fishQuote(child.summary())).append("\n");
      }
    }
    for (Option o : c.options()) sb.append("complete -c gq -n ").append(in).append(option(o)).append("\n");
    if (c.path().isEmpty()) {
      sb.append("complete -c gq -n ").append(at).append(" -s g -l gpus -x -d ")
          .append(Shell.fishQuote("Queue a command for N whole GPUs: gq -g N CMD...")).append("\n");
    }
    if (arg != null) arguments(sb, c, arg, at, in);
  }

  /** A command's arguments: files, choices, or a program and then the program's own words. */
  private static void arguments(StringBuilder sb, CommandTree c, Value arg, String at, String in) {
    switch (arg.kind()) {
      case FILE -> sb.append("complete -c gq -n ").append(in).append(" -F\n");
      case CHOICE -> sb.append("complete -c gq -n ").append(in).append(" -a ")
          .append(Shell.fishQuote(String.join(" ", arg.choices()))).append("\n");
      case PROGRAM -> {
        sb.append("complete -c gq -n ").append(at).append(" -a '(__fish_complete_command)'\n");
        sb.append("complete -c gq -n ").append(Shell.fishQuote("__gq_after " + Shell.fishQuote(path(c))))
            .append(" -a '(__gq_program_args)'\n");
      }
      case JOB -> sb.append("complete -c gq -n ").append(in).append(" -x -a '(__gq_jobs)'\n");
      case LIVE_JOB -> sb.append("complete -c gq -n ").append(in).append(" -x -a '(__gq_live_jobs)'\n");
      case GROUP -> sb.append("complete -c gq -n ").append(in).append(" -x -a '(__gq_groups)'\n");
      case TEXT -> { }
    }
  }

  private static String option(Option o) {
    StringBuilder sb = new StringBuilder();
    for (String n : o.names()) {
      if (n.startsWith("--")) sb.append(" -l ").append(Shell.fishQuote(n.substring(2)));
      else if (n.length() == 2) sb.append(" -s ").append(Shell.fishQuote(n.substring(1)));
      else sb.append(" -o ").append(Shell.fishQuote(n.substring(1)));
    }
    Value v = o.value();
    if (v != null) {
      switch (v.kind()) {
        case FILE -> sb.append(" -r -F");
        case CHOICE -> sb.append(" -x -a ").append(Shell.fishQuote(String.join(" ", v.choices())));
        case GROUP -> sb.append(" -x -a '(__gq_groups)'");
        default -> sb.append(" -x");
      }
    }
    return sb.append(" -d ").append(Shell.fishQuote(o.summary())).toString();
  }

  private static final String FUNCTIONS = """
      # The ids of the jobs, only from a daemon that is already running (completing never starts one).
      function __gq_jobs
          command gq daemon status >/dev/null 2>&1; and command gq ps --no-header -o id 2>/dev/null
      end

      # The ids of the jobs that have not ended (those a cancel can stop), as __gq_jobs.
      function __gq_live_jobs
          command gq daemon status >/dev/null 2>&1
          and command gq ps -t WAITING,STARTING,RUNNING,PREEMPTING --no-header -o id 2>/dev/null
      end

      # The names of the groups, as __gq_jobs.
      function __gq_groups
          command gq daemon status >/dev/null 2>&1
          and command gq groups --json 2>/dev/null | sed -n 's/^ *"group" *: *"\\(.*\\)",\\{0,1\\}$/\\1/p'
      end

      # Where the words before the cursor lead, as ARGS:INDEX:PATH: how many arguments follow the
      # command path PATH, and the index (in 'commandline -opc') of the first of them.
      function __gq_state
          set -l words (commandline -opc)
          set -l path ''
          set -l args 0
          set -l first 0
          set -l skip 0
          for i in (seq 2 (count $words))
              set -l w $words[$i]
              if test $skip = 1
                  set skip 0
                  continue
              end
              if test $args -gt 0
                  set args (math $args + 1)
                  continue
              end
              # the shortcut: 'gq -g N CMD' is 'gq run -g N CMD'
              if test -z "$path"; and string match -qr -- '^(-g|--gpus)' $w
                  set path run
              end
              if string match -q -- '-*' $w
                  if not string match -q -- '*=*' $w; and contains -- $w (__gq_valued $path)
                      set skip 1
                  end
                  continue
              end
              set -l next (__gq_child $path $w)
              if test -n "$next"
                  set path $next
              else
                  set args 1
                  set first $i
              end
          end
          echo "$args:$first:$path"
      end

      # At command path $argv[1], before any argument.
      function __gq_at
          set -l s (string split -m 2 : (__gq_state))
          test "$s[3]" = "$argv[1]"; and test $s[1] = 0
      end

      # At command path $argv[1], before or after its arguments.
      function __gq_in
          set -l s (string split -m 2 : (__gq_state))
          test "$s[3]" = "$argv[1]"
      end

      # After the program given to command path $argv[1].
      function __gq_after
          set -l s (string split -m 2 : (__gq_state))
          test "$s[3]" = "$argv[1]"; and test $s[1] -gt 0
      end

      # The program's own completions for the words after 'gq run [OPTIONS]'.
      function __gq_program_args
          set -l s (string split -m 2 : (__gq_state))
          set -l words (commandline -opc)
          complete -C (string join ' ' -- (string escape -- $words[$s[2]..-1]) (commandline -ct))
      end

      """;
}
