package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq mcp} in the daemon: the session reads the input the client streams, answers on its
 * standard output, and runs each tool's command through this tree with the caller's directory and
 * environment; a client that cannot stream its input is refused in one line.
 */
class McpCommandTest {
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
      + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  static final String SUBMIT = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"submit\","
      + "\"arguments\":{\"argv\":[\"python\",\"t.py\"],\"confirm\":true}}}";

  @TempDir Path dir;

  @Test
  void aSessionAnswersOnStandardOutputAndItsToolsRunInTheTreeAsTheCaller() throws Exception {
    Cli cli = new Cli(dir);
    cli.io.env.put("WANDB_PROJECT", "p");
    cli.io.streamed = (INIT + "\n" + SUBMIT + "\n").getBytes(StandardCharsets.UTF_8);
    Cli.Result r = cli.run("mcp");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out());
    assertEquals("gq", ((Map<?, ?>) ((Map<?, ?>) answer(lines.get(0)).get("result")).get("serverInfo")).get("name"));
    Map<?, ?> result = (Map<?, ?>) answer(lines.get(1)).get("result");
    assertEquals(false, result.get("isError"), lines.get(1));
    assertEquals(1, cli.api.submitted.size());
    JobSpec spec = cli.api.submitted.get(0);
    assertEquals(List.of("python", "t.py"), spec.argv());
    assertEquals(dir.toString(), spec.cwd());
    assertEquals("p", spec.env().get("WANDB_PROJECT"));
  }

  @Test
  void aToolWhoseOutputTheBudgetHasNoRoomForIsAnsweredBusyAndGivesItsShareBack() throws Exception {
    Cli cli = new Cli(dir);
    for (long id = 1; id <= 2000; id++) cli.api.add(Jobs.job(id, JobState.WAITING));
    int[] held = {0};
    cli.io.memory = () -> new RequestMemory.Charge() {
      int mine;

      @Override public void grow(int capacity) throws ProtocolException {
        if (capacity > (1 << 20)) throw new ProtocolException("the daemon is busy with other large requests; send this one again in a moment");
        held[0] += Math.max(0, capacity - mine);
        mine = Math.max(mine, capacity);
      }

      @Override public void close() {
        held[0] -= mine;
        mine = 0;
      }
    };
    String ps = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\",\"arguments\":{\"all\":true}}}";
    cli.io.streamed = (INIT + "\n" + ps + "\n").getBytes(StandardCharsets.UTF_8);
    Cli.Result r = cli.run("mcp");
    assertEquals(0, r.code(), r.err());
    Map<?, ?> error = (Map<?, ?>) answer(r.out().lines().toList().get(1)).get("error");
    assertEquals(-32000L, error.get("code"), r.out());
    assertEquals("the daemon is busy with other large requests; send this one again in a moment (the answer of ps is too large now)",
        error.get("message"));
    assertEquals(0, held[0], "the call's share is given back once its answer is written");
  }

  @Test
  void aClientThatCannotStreamItsInputIsRefusedInOneLine() {
    Cli.Result r = new Cli(dir).run("mcp");
    assertEquals(1, r.code());
    assertEquals("gq: this client cannot stream its standard input to the daemon; run 'gq mcp' with the gq"
        + " command (bin/gq in a checkout, or the installed gq)\n", r.err());
    assertFalse(r.out().contains("jsonrpc"));
  }

  @Test
  void helpListsMcp() {
    assertTrue(new Cli(dir).run("--help").out().contains("  mcp "), "gq --help names gq mcp");
  }

  private static Map<?, ?> answer(String line) throws Exception {
    return (Map<?, ?>) Json.parse(line);
  }
}
