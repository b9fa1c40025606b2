package dev.gq.cli;

import dev.gq.protocol.Release;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * The root {@code gq} command: owns {@code --help}, {@code --version} and {@code --verbose} (the
 * last inherited by every subcommand) and refuses to run without a subcommand. The subcommands,
 * and their own {@code --help}, are attached by {@link Gq}.
 */
@Command(
    name = "gq",
    versionProvider = GqCommand.Version.class,
    description = "Queue commands for whole GPUs of this workstation.",
    footer = {"", "Shortcut: 'gq -g N CMD...' is 'gq run -g N CMD...'."})
final class GqCommand implements Callable<Integer> {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
  boolean version;

  @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Show stack traces of internal errors.")
  boolean verbose;

  @Override
  public Integer call() {
    throw new UsageException("a command is required; 'gq --help' lists them");
  }

  /** {@code gq --version}: "gq 0.1.0", from the build's version. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"gq " + Release.VERSION};
    }
  }
}
