package dev.gq.cli.shell;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command tree as completions and manual pages need it, read from picocli's model so that
 * they cannot drift from the commands: each command with its path ({@code daemon status}), aliases,
 * one-line summary, options and what its arguments are (files, a program to run, a fixed list of
 * choices, jobs, live jobs, groups, or free text). Hidden commands and options are left out.
 */
public record CommandTree(List<String> path, List<String> aliases, String summary, List<Option> options,
    Value positional, List<CommandTree> children, CommandSpec spec) {

  /** What a value is, for completing it: LIVE_JOB a job that has not ended, GROUP a group's name. */
  public enum Kind { TEXT, FILE, PROGRAM, CHOICE, JOB, LIVE_JOB, GROUP }

  /** The commands whose jobs are only live ones: an ended job is nothing to offer them. */
  private static final Set<String> ON_LIVE_JOBS = Set.of("cancel");

  /** An option or positional's value: its label ({@code N}, {@code FILE}), kind and choices. */
  public record Value(String label, Kind kind, List<String> choices, boolean repeats) {}

  /** One option: all its names, its value (null for a flag) and its one-line summary. */
  public record Option(List<String> names, Value value, String summary) {
    public boolean takesValue() {
      return value != null;
    }
  }

  /** The tree under {@code root} (gq itself). */
  public static CommandTree of(CommandLine root) {
    return node(root, List.of());
  }

  /** The command's name: the last word of its path, or {@code gq} at the top. */
  public String name() {
    return path.isEmpty() ? "gq" : path.get(path.size() - 1);
  }

  /** {@code gq daemon status}. */
  public String qualifiedName() {
    return path.isEmpty() ? "gq" : "gq " + String.join(" ", path);
  }

  /** The subcommand named {@code name} (not an alias), or null. */
  public CommandTree child(String name) {
    for (CommandTree c : children) if (c.name().equals(name)) return c;
    return null;
  }

  /** Every name the command answers to: its name, then its aliases. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    names.add(name());
    names.addAll(aliases);
    return names;
  }

  /** The path as one word for generated function names: {@code daemon_status}, {@code ""} at the top. */
  public String id() {
    return String.join("_", path).replace('-', '_');
  }

  /** This command and every command under it, parents first. */
  public List<CommandTree> all() {
    List<CommandTree> out = new ArrayList<>();
    out.add(this);
    for (CommandTree c : children) out.addAll(c.all());
    return out;
  }

  private static CommandTree node(CommandLine cl, List<String> path) {
    CommandSpec spec = cl.getCommandSpec();
    List<Option> options = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (o.hidden()) continue;
      List<String> names = new ArrayList<>(List.of(o.names()));
      // a negatable option is also typed in its negative form (--wait: --no-wait)
      if (o.negatable()) {
        for (String n : o.names()) {
          String negative = spec.negatableOptionTransformer().makeNegative(n, spec);
          if (!names.contains(negative)) names.add(negative);
        }
      }
      options.add(new Option(List.copyOf(names), o.typeInfo().isBoolean() ? null : value(o), summary(o.description())));
    }
    Value positional = null;
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden() && positional == null) positional = value(p);
    }
    if (positional != null && positional.kind() == Kind.JOB && ON_LIVE_JOBS.contains(spec.name())) {
      positional = new Value(positional.label(), Kind.LIVE_JOB, List.of(), positional.repeats());
    }
    List<CommandTree> children = new ArrayList<>();
    // a command is listed under its name and under each alias: visit it once
    Set<CommandLine> subs = new LinkedHashSet<>(cl.getSubcommands().values());
    for (CommandLine sub : subs) {
      if (sub.getCommandSpec().usageMessage().hidden()) continue;
      List<String> childPath = new ArrayList<>(path);
      childPath.add(sub.getCommandName());
      children.add(node(sub, List.copyOf(childPath)));
    }
    List<String> aliases = List.of(spec.aliases());
    return new CommandTree(path, aliases, summary(spec.usageMessage().description()), List.copyOf(options),
        positional, List.copyOf(children), spec);
  }

  private static Value value(ArgSpec arg) {
    String label = arg.paramLabel().replaceAll("[<>]", "");
    boolean repeats = arg.isMultiValue();
    Class<?> type = arg.type();
    if (type == File.class || type == Path.class || label.equals("FILE") || label.equals("SCRIPT")) {
      return new Value(label, Kind.FILE, List.of(), repeats);
    }
    if (label.equals("CMD")) return new Value(label, Kind.PROGRAM, List.of(), repeats);
    if (label.equals("JOB")) return new Value(label, Kind.JOB, List.of(), repeats);
    if (label.equals("GROUP") || (label.equals("G") && arg instanceof OptionSpec o && o.longestName().equals("--group")))
      return new Value(label, Kind.GROUP, List.of(), repeats);
    if (arg.completionCandidates() != null) {
      List<String> choices = new ArrayList<>();
      arg.completionCandidates().forEach(choices::add);
      return new Value(label, Kind.CHOICE, List.copyOf(choices), repeats);
    }
    return new Value(label, Kind.TEXT, List.of(), repeats);
  }

  /** The first line of a description that has text ({@code %n} is a line break to picocli). */
  private static String summary(String[] description) {
    if (description == null) return "";
    for (String line : String.join("%n", description).split("%n")) {
      if (!line.isBlank()) return line.trim();
    }
    return "";
  }
}
