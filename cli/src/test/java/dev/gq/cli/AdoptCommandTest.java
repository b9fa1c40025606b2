package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.job.GpuSlot;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gq adopt}: what it sends the daemon, what it prints, its JSON, and a refusal as one line. */
class AdoptCommandTest {
  @TempDir Path dir;
  private final List<List<Object>> asked = new ArrayList<>();

  /** A daemon that answers adopt with {@code outcome}, or refuses with {@code refusal}; nothing else. */
  private GqApi api(AdoptOutcome outcome, String refusal) {
    InvocationHandler h = (proxy, m, args) -> {
      if (m.getName().equals("adopt")) {
        asked.add(List.of(args[0], String.valueOf(args[1]), String.valueOf(args[2]), String.valueOf(args[3])));
        if (refusal != null) throw new ApiException(refusal);
        return outcome;
      }
      if (m.isDefault()) return InvocationHandler.invokeDefault(proxy, m, args);
      throw new AssertionError("gq adopt asked the daemon for " + m.getName());
    };
    return (GqApi) Proxy.newProxyInstance(GqApi.class.getClassLoader(), new Class<?>[] {GqApi.class}, h);
  }

  private Cli.Result run(GqApi api, String... argv) {
    FakeIo io = new FakeIo(dir);
    io.stdoutTty = false;
    int code = Gq.run(List.of(argv), io, api);
    return new Cli.Result(code, io.stdout(), io.stderr());
  }

  @Test
  void printsTheNewJobItsGpusAndItsLog() {
    var o = new AdoptOutcome(57, List.of(new GpuSlot("GPU-a", 0), new GpuSlot("GPU-b", 2)), "/home/u/train.log");
    Cli.Result r = run(api(o, null), "adopt", "48211", "--name", "resnet", "--group", "g", "--key", "k");
    assertEquals(0, r.code(), r.err());
    assertEquals("Adopted process 48211 as job 57 on GPU 0,2; 'gq logs 57' reads /home/u/train.log\n", r.out());
    assertEquals(List.of(List.of(48211L, "resnet", "g", "k")), asked);
  }

  @Test
  void aShellWhoseChildTrainsNamesTheChildThatUsesTheGpu() {
    var o = new AdoptOutcome(58, List.of(new GpuSlot("GPU-a", 1)), null, List.of(5678L));
    Cli.Result r = run(api(o, null), "adopt", "4321");
    assertTrue(r.out().startsWith("Adopted process 4321 as job 58 on GPU 1 (used by its descendant 5678; the job is process"
        + " 4321 and everything it started);"), r.out());
    var itself = new AdoptOutcome(59, List.of(new GpuSlot("GPU-a", 1)), null, List.of(4321L));
    assertTrue(run(api(itself, null), "adopt", "4321").out().startsWith("Adopted process 4321 as job 59 on GPU 1;"));
  }

  @Test
  void aRunOnNoGpuWithoutAFileForStdoutSaysSo() {
    Cli.Result r = run(api(new AdoptOutcome(3, List.of(), null), null), "adopt", "99");
    assertEquals("Adopted process 99 as job 3 as a 0-GPU job: no GPU lists it or its descendants; its stdout is not a"
        + " regular file, so 'gq logs 3' has nothing to show\n", r.out());
  }

  @Test
  void jsonMatchesItsSchema() {
    var o = new AdoptOutcome(57, List.of(new GpuSlot("GPU-a", 0)), null);
    Cli.Result r = run(api(o, null), "adopt", "48211", "--json");
    assertEquals(0, r.code(), r.err());
    JsonOutputs.checkOutput(List.of("adopt", "48211", "--json"), 0, r.out());
    var n = JsonSchemas.parse(r.out());
    assertEquals(57, n.get("id").asLong());
    assertEquals(48211, n.get("pid").asLong());
    assertTrue(n.get("log_path").isNull());
  }

  @Test
  void aRefusalIsOneLineAndExitsOne() {
    Cli.Result r = run(api(null, "process 5 does not exist (it has ended, or is not visible here); check the PID with 'ps -p 5'"),
        "adopt", "5");
    assertEquals(1, r.code());
    assertEquals("", r.out());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("process 5 does not exist"), r.err());
  }

  @Test
  void aPidThatIsNotANumberIsAUsageError() {
    Cli.Result r = run(api(null, null), "adopt", "abc");
    assertEquals(2, r.code(), r.err());
    assertTrue(asked.isEmpty());
  }
}
