package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as a process on standard input and output: requests piped in all at once, standard
 * input closed right after them, still get every answer before it exits (no daemon is needed:
 * the calls are dry runs and bad input).
 */
class McpMainTest {
  @TempDir Path tmp;

  @Test
  void inputThatEndsRightAfterTheRequestsStillGetsEveryAnswer() throws Exception {
    Path in = tmp.resolve("in");
    Files.write(in, List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"submit\",\"arguments\":{\"argv\":[\"python\",\"train.py\"]}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"show\",\"arguments\":{\"job\":\"newest\"}}}"));
    Path out = tmp.resolve("out");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), McpMain.class.getName())
        .directory(tmp.toFile())
        .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(tmp.resolve("err").toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the server ends when its input ends");
    assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("err")));
    String text = Files.readString(out, StandardCharsets.UTF_8);
    for (int id = 1; id <= 4; id++) assertTrue(text.contains("{\"jsonrpc\":\"2.0\",\"id\":" + id + ","), "answer " + id + " in:\n" + text);
    assertTrue(text.contains("Dry run: nothing was done."), text);
    assertTrue(text.contains("\"isError\":true"), "the bad job id is an error result: " + text);
    assertEquals(4, text.lines().count(), "only the protocol on standard output:\n" + text);
  }
}
