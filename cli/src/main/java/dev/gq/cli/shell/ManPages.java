package dev.gq.cli.shell;

import dev.gq.protocol.Release;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * One manual page (roff, section 1) per command, written from the {@link CommandTree}: {@code gq.1},
 * {@code gq-submit.1}, {@code gq-daemon-status.1}, with the synopsis, description, arguments and
 * options that {@code --help} shows, the subcommands of a command that has them, and a page for
 * each alias that points to its command's ({@code gq-ls.1}: {@code .so man1/gq-ps.1}).
 */
public final class ManPages {
  private ManPages() {}

  /** File name (in man1/) to page. */
  public static Map<String, String> pages(CommandTree root) {
    Map<String, String> pages = new LinkedHashMap<>();
    ReferenceExamples examples = ReferenceExamples.bundled();
    for (CommandTree c : root.all()) {
      pages.put(file(c.path()), page(c, root, examples.of(c.path())));
      for (String alias : c.aliases()) {
        List<String> aliasPath = new ArrayList<>(c.path().subList(0, c.path().size() - 1));
        aliasPath.add(alias);
        pages.put(file(aliasPath), ".so man1/" + file(c.path()) + "\n");
      }
    }
    return pages;
  }

  /** {@code gq-daemon-status.1}. */
  public static String file(List<String> path) {
    return title(path) + ".1";
  }

  private static String title(List<String> path) {
    return path.isEmpty() ? "gq" : "gq-" + String.join("-", path);
  }

  private static String page(CommandTree c, CommandTree root, List<String> examples) {
    CommandSpec spec = c.spec();
    StringBuilder sb = new StringBuilder();
    sb.append(".TH ").append(title(c.path()).toUpperCase(Locale.ROOT)).append(" 1 \"\" \"gq ")
        .append(Release.VERSION).append("\" \"gq manual\"\n.nh\n");
    sb.append(".SH NAME\n").append(text(title(c.path()))).append(" \\- ").append(text(c.summary())).append("\n");
    sb.append(".SH SYNOPSIS\n.ad l\n").append(text(synopsis(spec))).append("\n.ad b\n");
    sb.append(".SH DESCRIPTION\n").append(paragraphs(spec.usageMessage().description()));
    if (!c.aliases().isEmpty()) {
      sb.append(".PP\nAlso named ").append(text(String.join(", ", c.aliases().stream()
          .map(a -> c.qualifiedName().replaceAll("\\S+$", a)).toList()))).append(".\n");
    }
    String footer = paragraphs(spec.usageMessage().footer());
    if (!footer.isEmpty()) sb.append(".PP\n").append(footer);
    arguments(sb, spec);
    options(sb, c, spec);
    commands(sb, c);
    if (!examples.isEmpty()) {
      sb.append(".SH EXAMPLES\n.nf\n");
      for (String line : examples) sb.append(text(line)).append("\n");
      sb.append(".fi\n");
    }
    sb.append(".SH SEE ALSO\n").append(seeAlso(c, root)).append("\n");
    sb.append(".PP\nEvery command, option and exit code: \\fIreference.md\\fR, and how to work with gq day to day:"
        + " \\fIguide.md\\fR, both installed in \\fIshare/doc/gq\\fR beside these pages (\\fI~/.local/share/doc/gq\\fR by"
        + " default) and in \\fIdocs/\\fR of gq's source.\n");
    return sb.toString();
  }

  private static void commands(StringBuilder sb, CommandTree c) {
    if (c.children().isEmpty()) return;
    sb.append(".SH COMMANDS\n");
    for (CommandTree child : c.children()) {
      sb.append(".TP\n.B ").append(text(String.join(", ", child.names()))).append("\n")
          .append(text(child.summary())).append(" See \\fB").append(title(child.path())).append("\\fR(1).\n");
    }
  }

  private static String synopsis(CommandSpec spec) {
    String line = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF)).synopsis(0);
    return line.replaceAll("\\s+", " ").trim();
  }

  private static void arguments(StringBuilder sb, CommandSpec spec) {
    List<PositionalParamSpec> params = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    if (params.isEmpty() || !spec.subcommands().isEmpty()) return;
    sb.append(".SH ARGUMENTS\n");
    for (PositionalParamSpec p : params) {
      sb.append(".TP\n.I ").append(text(p.paramLabel())).append("\n").append(text(String.join(" ", p.description()))).append("\n");
    }
  }

  private static void options(StringBuilder sb, CommandTree c, CommandSpec spec) {
    if (c.options().isEmpty()) return;
    sb.append(".SH OPTIONS\n");
    for (OptionSpec o : spec.options()) {
      if (o.hidden()) continue;
      sb.append(".TP\n");
      List<String> names = List.of(o.names());
      sb.append(String.join(", ", names.stream().map(n -> "\\fB" + text(n) + "\\fR").toList()));
      if (!o.typeInfo().isBoolean()) sb.append(" \\fI").append(text(o.paramLabel())).append("\\fR");
      sb.append("\n").append(text(String.join(" ", o.description()))).append("\n");
    }
  }

  private static String seeAlso(CommandTree c, CommandTree root) {
    Set<String> refs = new LinkedHashSet<>();
    if (!c.path().isEmpty()) {
      refs.add(title(List.of()));
      if (c.path().size() > 1) refs.add(title(c.path().subList(0, c.path().size() - 1)));
    }
    for (CommandTree child : (c.path().isEmpty() ? root.all().subList(1, root.all().size()) : c.children())) {
      refs.add(title(child.path()));
    }
    return String.join(",\n", refs.stream().map(r -> "\\fB" + r + "\\fR(1)").toList());
  }

  private static String paragraphs(String[] lines) {
    StringBuilder sb = new StringBuilder();
    StringBuilder para = new StringBuilder();
    for (String line : lines) {
      if (line.isBlank()) {
        flush(sb, para);
      } else {
        para.append(para.isEmpty() ? "" : " ").append(line.trim());
      }
    }
    flush(sb, para);
    return sb.toString();
  }

  private static void flush(StringBuilder sb, StringBuilder para) {
    if (para.isEmpty()) return;
    if (!sb.isEmpty()) sb.append(".PP\n");
    sb.append(text(para.toString())).append("\n");
    para.setLength(0);
  }

  /** Text for roff: backslashes and hyphens escaped, no line starting with a control character. */
  static String text(String s) {
    String escaped = s.replace("\\", "\\e").replace("-", "\\-");
    return escaped.startsWith(".") || escaped.startsWith("'") ? "\\&" + escaped : escaped;
  }
}
