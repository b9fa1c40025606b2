package dev.gq.host.lease;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A process that takes leases and shares of GPU {@code GPU-a} or {@code GPU-b} (81920 MiB each,
 * 2048 MiB of headroom) in the lease directory given as its argument, as the user it runs as, on
 * the commands it reads one a line, answering one line each: {@code share GPU JOB MIB},
 * {@code take GPU JOB} ("held" or "taken: why"), {@code read GPU} (the state, then each share),
 * {@code close} (gives back all it holds). It ends at the end of its input, its locks with it.
 */
public final class LeaseTaker {
  private LeaseTaker() {}

  public static void main(String[] args) throws Exception {
    var leases = new LeaseFiles(Path.of(args[0]));
    String user = System.getProperty("user.name");
    var self = new LeaseHolder.Instance(LeaseLibc.C_LIB.geteuid(), user, "/data/" + user);
    Map<String, Long> total = Map.of("GPU-a", 81920L, "GPU-b", 81920L);
    List<GpuLeases.Held> held = new ArrayList<>();
    var in = new BufferedReader(new InputStreamReader(System.in));
    for (String line; (line = in.readLine()) != null; ) {
      String[] w = line.strip().split(" ");
      String answer;
      try {
        answer = switch (w[0]) {
          case "share" -> {
            held.add(leases.takeShares(List.of(w[1]), new LeaseHolder(self, Long.parseLong(w[2])), Long.parseLong(w[3]),
                total, 2048, 0));
            yield "held";
          }
          case "take" -> {
            held.add(leases.take(List.of(w[1]), new LeaseHolder(self, Long.parseLong(w[2]))));
            yield "held";
          }
          case "read" -> {
            GpuLease l = leases.read(List.of(w[1])).get(w[1]);
            StringBuilder b = new StringBuilder(l.state().name());
            l.shares().forEach(s -> b.append(" | ").append(s.describe(null)));
            if (l.error() != null) b.append(" | ").append(l.error());
            yield b.toString();
          }
          case "close" -> {
            held.forEach(GpuLeases.Held::close);
            held.clear();
            yield "closed";
          }
          default -> "unknown command " + w[0];
        };
      } catch (GpuLeases.Taken e) {
        answer = "taken: " + e.getMessage();
      }
      System.out.println(answer);
      System.out.flush();
    }
  }
}
