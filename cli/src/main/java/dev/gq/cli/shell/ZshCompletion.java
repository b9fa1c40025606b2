package dev.gq.cli.shell;

import dev.gq.cli.shell.CommandTree.Kind;
import dev.gq.cli.shell.CommandTree.Option;
import dev.gq.cli.shell.CommandTree.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The zsh completion function {@code _gq}, written from the {@link CommandTree}: one function per
 * command built on {@code _arguments}, with each option's description, subcommands (aliases
 * included) offered through {@code _describe}, files for scripts, and after {@code gq run} (or the
 * {@code gq -g N} shortcut) the program and then that program's own completion.
 */
public final class ZshCompletion {
  private ZshCompletion() {}

  public static String script(CommandTree root) {
    StringBuilder sb = new StringBuilder();
    sb.append("#compdef gq\n");
    sb.append("# zsh completion for gq. Generated from gq's command tree ('gq completion zsh'); do not edit.\n\n");
    sb.append("""
        # The ids of the jobs, only from a daemon that is already running (completing never starts one).
        _gq_jobs() {
          local -a ids
          ids=(${(f)"$(command gq daemon status >/dev/null 2>&1 && command gq ps --no-header -o id 2>/dev/null)"})
          compadd -a ids
        }

        # The ids of the jobs that have not ended (those a cancel can stop), as _gq_jobs.
        _gq_live_jobs() {
          local -a ids
          ids=(${(f)"$(command gq daemon status >/dev/null 2>&1 \\
            && command gq ps -t WAITING,STARTING,RUNNING,PREEMPTING --no-header -o id 2>/dev/null)"})
          compadd -a ids
        }

        # The names of the groups, as _gq_jobs.
        _gq_groups() {
          local -a names
          names=(${(f)"$(command gq daemon status >/dev/null 2>&1 \\
            && command gq groups --json 2>/dev/null | sed -n 's/^ *"group" *: *"\\(.*\\)",\\{0,1\\}$/\\1/p')"})
          compadd -a names
        }

        """);
    List<CommandTree> all = root.all();
    for (int i = all.size() - 1; i >= 0; i--) function(sb, all.get(i), all.get(i) == root);
    sb.append("""
        if [ "$funcstack[1]" = "_gq" ]; then
          _gq "$@"
        else
          compdef _gq gq
        fi
        """);
    return sb.toString();
  }

  private static void function(StringBuilder sb, CommandTree c, boolean top) {
    sb.append(name(c)).append("() {\n");
    if (top) {
      sb.append("  # the shortcut: 'gq -g N CMD' is 'gq run -g N CMD'\n");
      sb.append("  if [[ ${words[2]} == (-g*|--gpus*) ]]; then\n    _gq_run\n    return\n  fi\n");
    }
    List<String> specs = new ArrayList<>();
    for (Option o : c.options()) for (String n : o.names()) specs.add(option(n, o));
    if (c.children().isEmpty()) {
      specs.addAll(positional(c.positional()));
      sb.append("  _arguments -s -S : \\\n    ").append(String.join(" \\\n    ", specs)).append("\n}\n\n");
    } else {
      withCommands(sb, c, specs);
    }
  }

  /** The body of a command that has subcommands: its options, then a subcommand and its words. */
  private static void withCommands(StringBuilder sb, CommandTree c, List<String> specs) {
    sb.append("  local curcontext=$curcontext state line\n  local -a commands\n");
    specs.add(Shell.quote("1: :->command"));
    specs.add(Shell.quote("*:: :->argument"));
    sb.append("  _arguments -C -s : \\\n    ").append(String.join(" \\\n    ", specs)).append("\n");
    sb.append("  case $state in\n    command)\n      commands=(");
    for (CommandTree child : c.children()) {
      for (String n : child.names()) sb.append("\n        ").append(Shell.quote(n + ":" + child.summary()));
    }
    sb.append("\n      )\n      _describe -t commands ").append(Shell.quote(c.qualifiedName() + " command"))
        .append(" commands\n      ;;\n    argument)\n      case $words[1] in\n");
    for (CommandTree child : c.children()) {
      sb.append("        ").append(String.join("|", child.names().stream().map(Shell::quote).toList()))
          .append(") ").append(name(child)).append(" ;;\n");
    }
    sb.append("      esac\n      ;;\n  esac\n}\n\n");
  }

  private static String name(CommandTree c) {
    return c.id().isEmpty() ? "_gq" : "_gq_" + c.id();
  }

  /** {@code '--name=[description]:NAME: '}; {@code *} in front when it may be given again. */
  private static String option(String name, Option o) {
    String description = "[" + escape(o.summary()) + "]";
    if (!o.takesValue()) return Shell.quote(name + description);
    String form = name.startsWith("--") ? "=" : "+";
    String repeat = o.value().repeats() ? "*" : "";
    return Shell.quote(repeat + name + form + description + ":" + o.value().label() + ":" + action(o.value()));
  }

  private static List<String> positional(Value v) {
    if (v == null) return List.of();
    if (v.kind() == Kind.PROGRAM) {
      return List.of(Shell.quote("1:program:_command_names -e"), Shell.quote("*::arguments:_normal"));
    }
    return List.of(Shell.quote((v.repeats() ? "*" : "1") + ":" + v.label() + ":" + action(v)));
  }

  private static String action(Value v) {
    return switch (v.kind()) {
      case FILE -> "_files";
      case CHOICE -> "(" + String.join(" ", v.choices()) + ")";
      case PROGRAM -> "_command_names -e";
      case JOB -> "_gq_jobs";
      case LIVE_JOB -> "_gq_live_jobs";
      case GROUP -> "_gq_groups";
      case TEXT -> " ";
    };
  }

  /** Text inside {@code [...]} of an {@code _arguments} spec: brackets, colons and backslashes escaped. */
  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:");
  }
}
