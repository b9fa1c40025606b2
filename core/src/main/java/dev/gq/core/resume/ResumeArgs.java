package dev.gq.core.resume;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a resumed attempt's command gets its checkpoint: the job's {@code --resume-arg} template (its
 * words split on white space, {@code {ckpt}} standing for the path) replaces the same flag where the
 * command already has it, or is appended; without a template, HuggingFace's
 * {@code --resume_from_checkpoint} (either spelling) gets the new path where the command has it, and
 * the command is otherwise left as it is (the path also reaches the job as {@code GQ_RESUME_FROM}).
 * A flag is never doubled. Pure.
 */
public final class ResumeArgs {
  private ResumeArgs() {}

  /** The placeholder for the checkpoint's path in a template. */
  public static final String PLACEHOLDER = "{ckpt}";
  static final Set<String> HUGGING_FACE = Set.of("--resume_from_checkpoint", "--resume-from-checkpoint");

  /** Why {@code template} cannot be used, or null. */
  public static String problem(String template) {
    if (template == null) return null;
    if (template.isBlank()) return "--resume-arg is empty; give the words that pass a checkpoint, e.g. '--resume_from_checkpoint {ckpt}'";
    if (!template.contains(PLACEHOLDER))
      return "--resume-arg '" + template + "' has no " + PLACEHOLDER + " where the checkpoint's path goes";
    return null;
  }

  /** {@code argv} resuming from {@code ckpt} as {@code template} (null: none) says. */
  public static List<String> apply(List<String> argv, String template, String ckpt) {
    List<String> words = template == null ? List.of() : words(template, ckpt);
    if (words.isEmpty()) {
      for (String flag : HUGGING_FACE) if (find(argv, flag) >= 0) return replace(argv, Set.of(flag), 2, List.of(flag, ckpt));
      return argv;
    }
    String first = words.get(0);
    if (!first.startsWith("-")) return append(argv, words);
    String flag = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
    // the HuggingFace flag is one flag in two spellings: either one in the command is the one replaced
    Set<String> same = HUGGING_FACE.contains(flag) ? HUGGING_FACE : Set.of(flag);
    return replace(argv, same, first.contains("=") ? 1 : words.size(), words);
  }

  private static List<String> words(String template, String ckpt) {
    List<String> out = new ArrayList<>();
    for (String w : template.trim().split("\\s+")) if (!w.isEmpty()) out.add(w.replace(PLACEHOLDER, ckpt));
    return out;
  }

  /**
   * {@code argv} with each use of a flag of {@code flags} taken out ({@code --flag=value} as one word,
   * {@code --flag value} as {@code spaced} words) and {@code words} put where the first was, or at the end.
   */
  private static List<String> replace(List<String> argv, Set<String> flags, int spaced, List<String> words) {
    List<String> out = new ArrayList<>(argv.size() + words.size());
    int at = -1;
    for (int i = 0; i < argv.size(); i++) {
      String a = argv.get(i);
      if ("--".equals(a)) {
        out.addAll(argv.subList(i, argv.size()));
        break;
      }
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (!flags.contains(name)) {
        out.add(a);
        continue;
      }
      if (at < 0) at = out.size();
      if (!a.contains("=")) i += spaced - 1;
    }
    if (at < 0) return append(argv, words);
    out.addAll(at, words);
    return out;
  }

  private static List<String> append(List<String> argv, List<String> words) {
    List<String> out = new ArrayList<>(argv);
    out.addAll(words);
    return out;
  }

  private static int find(List<String> argv, String flag) {
    for (int i = 0; i < argv.size(); i++) {
      String a = argv.get(i);
      if ("--".equals(a)) return -1;
      if (a.equals(flag) || a.startsWith(flag + "=")) return i;
    }
    return -1;
  }
}
