package dev.gq.cli.shell;

import dev.gq.cli.shell.CommandTree.Kind;
import dev.gq.cli.shell.CommandTree.Option;
import dev.gq.cli.shell.CommandTree.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bash completion script for gq, written from the {@link CommandTree}: it walks the words
 * before the cursor down the tree (aliases and the {@code gq -g N} shortcut included), then offers
 * that command's subcommands, options, option values (files, fixed choices) or arguments (files for
 * a script, programs and then the program's own completion after {@code gq run}, the ids of the
 * jobs a running daemon lists (only live ones where only those apply), its groups' names;
 * completion never starts a daemon).
 */
public final class BashCompletion {
  private BashCompletion() {}

  public static String script(CommandTree root) {
    StringBuilder sb = new StringBuilder();
    sb.append("# bash completion for gq. Generated from gq's command tree ('gq completion bash'); do not edit.\n\n");
    sb.append("# The command below path $1 ('' is gq itself) that word $2 names, in REPLY; status 1 if none.\n");
    sb.append("_gq_child() {\n  case \"$1/$2\" in\n");
    for (CommandTree c : root.all()) {
      for (CommandTree child : c.children()) {
        List<String> patterns = child.names().stream().map(n -> Shell.quote(path(c) + "/" + n)).toList();
        sb.append("    ").append(String.join(" | ", patterns)).append(") REPLY=").append(Shell.quote(path(child))).append(" ;;\n");
      }
    }
    sb.append("    *) return 1 ;;\n  esac\n}\n\n");
    sb.append("# What command path $1 takes: subcommands, flags, options with a value, and its arguments' kind.\n");
    sb.append("_gq_spec() {\n  case $1 in\n");
    for (CommandTree c : root.all()) spec(sb, c, c == root ? root.child("run") : null);
    sb.append("  esac\n}\n\n");
    sb.append("# Completes the value of option $2 of command path $1.\n");
    sb.append("_gq_value() {\n  case \"$1 $2\" in\n");
    for (CommandTree c : root.all()) values(sb, c);
    sb.append("    *) COMPREPLY=() ;;\n  esac\n}\n\n");
    sb.append(MAIN);
    return sb.toString();
  }

  private static String path(CommandTree c) {
    return String.join(" ", c.path());
  }

  private static void spec(StringBuilder sb, CommandTree c, CommandTree shortcut) {
    List<String> flags = new ArrayList<>();
    List<String> valued = new ArrayList<>();
    for (Option o : c.options()) (o.takesValue() ? valued : flags).addAll(o.names());
    if (shortcut != null) valued.addAll(List.of("-g", "--gpus"));
    List<String> subs = new ArrayList<>();
    for (CommandTree child : c.children()) subs.addAll(child.names());
    Value arg = c.positional();
    String kind = arg == null ? "none" : arg.kind().name().toLowerCase(Locale.ROOT);
    String choices = arg != null && arg.kind() == Kind.CHOICE ? String.join(" ", arg.choices()) : "";
    sb.append("    ").append(Shell.quote(path(c))).append(") subs=").append(Shell.quote(String.join(" ", subs)))
        .append(" flags=").append(Shell.quote(String.join(" ", flags)))
        .append(" valued=").append(Shell.quote(String.join(" ", valued)))
        .append(" args=").append(kind).append(" choices=").append(Shell.quote(choices)).append(" ;;\n");
  }

  private static void values(StringBuilder sb, CommandTree c) {
    for (Option o : c.options()) {
      if (!o.takesValue() || o.value().kind() == Kind.TEXT) continue;
      List<String> patterns = o.names().stream().map(n -> Shell.quote(path(c) + " " + n)).toList();
      sb.append("    ").append(String.join(" | ", patterns)).append(") ");
      String words = switch (o.value().kind()) {
        case CHOICE -> Shell.quote(String.join(" ", o.value().choices()));
        case GROUP -> "\"$(_gq_groups)\"";
        case JOB -> "\"$(_gq_jobs)\"";
        case LIVE_JOB -> "\"$(_gq_live_jobs)\"";
        default -> null;
      };
      sb.append(words == null ? "_gq_files ;;\n" : "COMPREPLY=($(compgen -W " + words + " -- \"$cur\")) ;;\n");
    }
  }

  private static final String MAIN = """
      _gq_files() {
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
      }

      # The ids of the jobs, only from a daemon that is already running (completing never starts one).
      _gq_jobs() {
        command gq daemon status >/dev/null 2>&1 && command gq ps --no-header -o id 2>/dev/null
      }

      # The ids of the jobs that have not ended (those a cancel can stop), as _gq_jobs.
      _gq_live_jobs() {
        command gq daemon status >/dev/null 2>&1 \\
          && command gq ps -t WAITING,STARTING,RUNNING,PREEMPTING --no-header -o id 2>/dev/null
      }

      # The names of the groups, as _gq_jobs.
      _gq_groups() {
        command gq daemon status >/dev/null 2>&1 \\
          && command gq groups --json 2>/dev/null | sed -n 's/^ *"group" *: *"\\(.*\\)",\\{0,1\\}$/\\1/p'
      }

      _gq() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev='' path='' i=1 w REPLY subs flags valued args choices
        COMPREPLY=()
        # walk the words before the cursor down the command tree
        while ((i < COMP_CWORD)); do
          w=${COMP_WORDS[i]}
          _gq_spec "$path"
          if [[ -z $path && ( $w == -g* || $w == --gpus* ) ]]; then
            path=run # the shortcut: 'gq -g N CMD' is 'gq run -g N CMD'
            continue
          fi
          if [[ $w == -?* ]]; then
            if [[ $w != *=* && " $valued " == *" $w "* ]]; then
              ((i++))
              [[ ${COMP_WORDS[i]-} == = ]] && ((i++))
            fi
            ((i++))
            continue
          fi
          if _gq_child "$path" "$w"; then
            path=$REPLY
            ((i++))
            continue
          fi
          break
        done
        _gq_spec "$path"
        if ((i < COMP_CWORD)) && [[ $args == program ]]; then
          # after 'gq run [OPTIONS] PROGRAM': complete as that program would
          if declare -F _command_offset >/dev/null; then
            _command_offset "$i"
          else
            _gq_files
          fi
          return
        fi
        prev=${COMP_WORDS[COMP_CWORD-1]}
        if [[ $cur == = ]]; then
          cur=''
        elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
          prev=${COMP_WORDS[COMP_CWORD-2]}
        fi
        if [[ " $valued " == *" $prev "* ]]; then
          _gq_value "$path" "$prev"
          return
        fi
        if [[ $cur == -* ]]; then
          COMPREPLY=($(compgen -W "$flags $valued" -- "$cur"))
        elif [[ -n $subs ]] && ((i == COMP_CWORD)); then
          COMPREPLY=($(compgen -W "$subs" -- "$cur"))
        else
          case $args in
            file) _gq_files ;;
            program) COMPREPLY=($(compgen -c -- "$cur")) ;;
            choice) COMPREPLY=($(compgen -W "$choices" -- "$cur")) ;;
            job) COMPREPLY=($(compgen -W "$(_gq_jobs)" -- "$cur")) ;;
            live_job) COMPREPLY=($(compgen -W "$(_gq_live_jobs)" -- "$cur")) ;;
            group) COMPREPLY=($(compgen -W "$(_gq_groups)" -- "$cur")) ;;
          esac
        fi
      }

      complete -F _gq gq
      """;
}
