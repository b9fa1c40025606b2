package dev.gq.cli;

import dev.gq.api.ApiException;
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
 * {@code gq gpu drain GPU...} keeps GPUs from this user's new jobs (a job on one keeps running);
 * {@code gq gpu resume GPU...} gives them back. Other users' gq do not see it, and the output says
 * so. With {@code --all-users} root or an admin of the machine policy keeps the GPUs from every
 * user's gq (an order file every gq honours only from root or an admin). A GPU is named by its index
 * or its UUID, as {@code gq gpu} shows them; both settings survive restarts.
 */
final class GpuDrainCommand {
  private GpuDrainCommand() {}

  /** What a drain of this user's gq alone does not do, and the machine-wide ways. */
  static String onlyMine(int index) {
    return "Your gq only: other users' gq may still start jobs on GPU " + index + "; to keep it from everyone's, root or an admin"
        + " of /etc/gq/policy.toml runs 'gq gpu drain " + index + " --all-users' (or lists it in the policy's interactive_gpus).";
  }

  @Command(name = "drain", description = "Keep GPUs from your gq's new jobs, or with --all-users (root and the policy's admins) from"
      + " every user's gq; a running job keeps its GPU; survives restarts.")
  static final class Drain implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(arity = "1..*", paramLabel = "GPU", description = "A GPU index or UUID, as 'gq gpu' shows them.")
    List<String> gpus;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by 'gq gpu' and 'gq who' (default: drained by the user).")
    String reason;

    @Option(names = "--all-users", description = "Keep the GPUs from every user's gq, not only yours (root and the policy's admins).")
    boolean allUsers;

    Drain(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      String why = reason == null ? (allUsers ? "" : "drained by the user") : Labels.checkOption("--reason", reason);
      for (GpuStatus g : resolve(inv, gpus)) {
        if (allUsers) {
          inv.io().out().println(inv.api().drainGpuForEveryone(g.uuid(), g.index(), why));
          continue;
        }
        inv.io().out().println(inv.api().drainGpu(g.uuid(), g.index(), why));
        inv.io().out().println(onlyMine(g.index()));
      }
      return ExitCode.OK;
    }
  }

  @Command(name = "resume", description = "Give drained GPUs back to new jobs (--all-users: undo a drain for every user's gq).")
  static final class GpuResume implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(arity = "1..*", paramLabel = "GPU", description = "A GPU index or UUID, as 'gq gpu' shows them.")
    List<String> gpus;

    @Option(names = "--all-users", description = "Remove your drain for every user's gq (root: anyone's).")
    boolean allUsers;

    GpuResume(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      for (GpuStatus g : resolve(inv, gpus))
        inv.io().out().println(allUsers ? inv.api().drainGpuForEveryone(g.uuid(), g.index(), null) : inv.api().drainGpu(g.uuid(), g.index(), null));
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
