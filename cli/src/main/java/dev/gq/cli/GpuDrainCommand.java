package dev.gq.cli;

import dev.gq.core.gpu.GpuStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq gpu drain GPU...} keeps GPUs from new jobs (a job on one keeps running), for example to
 * leave GPU 0 to interactive work; {@code gq gpu resume GPU...} gives them back. A GPU is named by
 * its index or its UUID, as {@code gq gpu} shows them; the setting is stored and survives restarts.
 */
final class GpuDrainCommand {
  private GpuDrainCommand() {}

  @Command(name = "drain", description = "Keep GPUs from new jobs (a running job keeps its GPU); survives restarts.")
  static final class Drain implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(arity = "1..*", paramLabel = "GPU", description = "A GPU index or UUID, as 'gq gpu' shows them.")
    List<String> gpus;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by 'gq gpu' (default: drained by the user).")
    String reason;

    Drain(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      String why = reason == null ? "drained by the user" : Labels.checkOption("--reason", reason);
      for (GpuStatus g : resolve(inv, gpus)) inv.io().out().println(inv.api().drainGpu(g.uuid(), g.index(), why));
      return ExitCode.OK;
    }
  }

  @Command(name = "resume", description = "Give drained GPUs back to new jobs.")
  static final class Resume implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(arity = "1..*", paramLabel = "GPU", description = "A GPU index or UUID, as 'gq gpu' shows them.")
    List<String> gpus;

    Resume(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      for (GpuStatus g : resolve(inv, gpus)) inv.io().out().println(inv.api().drainGpu(g.uuid(), g.index(), null));
      return ExitCode.OK;
    }
  }

  /** The GPUs {@code names} name, each once, in order; a name that matches none is refused, all unchanged. */
  static List<GpuStatus> resolve(Invocation inv, List<String> names) throws ApiException {
    List<GpuStatus> all = inv.api().gpus().gpus();
    Map<String, GpuStatus> out = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    for (String n : names) {
      GpuStatus g = all.stream().filter(x -> n.equals(String.valueOf(x.index())) || n.equalsIgnoreCase(x.uuid()))
          .findFirst().orElse(null);
      if (g == null) unknown.add(n);
      else out.put(g.uuid(), g);
    }
    if (!unknown.isEmpty()) {
      String known = all.isEmpty() ? "gq sees no GPU now" : "gq sees GPUs " + all.stream()
          .map(g -> String.valueOf(g.index())).collect(Collectors.joining(", "));
      throw new UsageException("no GPU " + String.join(", ", unknown) + "; " + known + " (by index or UUID, as 'gq gpu' shows)");
    }
    return new ArrayList<>(out.values());
  }
}
