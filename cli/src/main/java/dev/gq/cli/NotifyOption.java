package dev.gq.cli;

import dev.gq.core.notify.NoticeKind;
import java.util.HashMap;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;

/**
 * {@code --notify[=EVENTS]} on {@code run} and {@code submit}: alone it means "tell me when this
 * job ends", and it never takes the next word as its value (in {@code gq run --notify python
 * train.py} the command stays whole); only {@code --notify=EVENTS} gives events. The choice goes
 * into the job's stored environment as {@code GQ_NOTIFY}, where the notifier reads it (so a shell's
 * {@code export GQ_NOTIFY=failed} works as well, and {@code gq modify --env} can change it).
 */
final class NotifyOption implements CommandLine.IParameterPreprocessor {
  static final String VARIABLE = "GQ_NOTIFY";

  @Override
  public boolean preprocess(Stack<String> args, CommandLine.Model.CommandSpec spec, CommandLine.Model.ArgSpec argSpec,
      Map<String, Object> info) {
    if (spec.parser().separator().equals(info.get("separator"))) return false; // --notify=EVENTS
    argSpec.setValue(NoticeKind.words(NoticeKind.BARE));
    return true;
  }

  /** The checked value to store; refuses unknown words in one line. {@code where} names the source ("--notify"). */
  static String checked(String value, String where) {
    try {
      return NoticeKind.words(NoticeKind.parse(value));
    } catch (IllegalArgumentException e) {
      throw new RefusedException(e.getMessage() + " (" + where + ")");
    }
  }

  /** {@code env} with the job's choice stored, when one was given. */
  static Map<String, String> apply(Map<String, String> env, String notify) {
    if (notify == null) return env;
    Map<String, String> out = new HashMap<>(env);
    out.put(VARIABLE, checked(notify, "--notify"));
    return out;
  }
}
