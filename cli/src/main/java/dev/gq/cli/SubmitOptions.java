package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options {@code run} and {@code submit} share: the job's labels, how its environment is
 * captured, and {@code --json}. Mixed into both commands; values are checked by
 * {@link Submitter} and the commands, not here.
 */
final class SubmitOptions {
  @Option(names = "--name", paramLabel = "NAME", description = "Name shown by 'gq ps' (default: the program's or script's file name).")
  String name;

  @Option(names = "--group", paramLabel = "GROUP", description = "Put the job in a group (default: $GQ_GROUP).")
  String group;

  @Option(names = "--key", paramLabel = "KEY", description = "Skip the submit if a job with this key is waiting, running or done.")
  String key;

  @Option(names = "--env-all", description = "Store secret-looking variables too (also GQ_ENV_ALL=1).")
  boolean envAll;

  @Option(names = "--env-keep", paramLabel = "NAME", description = "Store this secret-looking variable anyway (repeatable).")
  List<String> envKeep = new ArrayList<>();

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;
}
