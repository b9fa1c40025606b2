package dev.gq.mcp;

import dev.gq.mcp.Tool.Reply;
import dev.gq.protocol.Release;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gq mcp}: a Model Context Protocol server on standard input and output, built on the MCP
 * Java SDK's stdio transport. Each tool call runs one gq command through the client library in
 * this process ({@link GqTools}); the server ends when its standard input closes and every request
 * read before has its answer ({@link PendingRequests}). Standard output
 * carries only the protocol; the SDK's errors go to standard error.
 */
public final class McpMain {
  static final String USAGE = "usage: gq mcp   (a Model Context Protocol server on stdin/stdout for an AI assistant;"
      + " register it with the command gq and the arguments [\"mcp\"]; see 'man gq-mcp')";
  static final String INSTRUCTIONS = "gq queues commands for whole GPUs of this machine. Never guess a job id: find it"
      + " with ps. The write tools (submit, cancel, retry, preempt, resume) only act with confirm: true; call them"
      + " without it first, show the user what would happen, and confirm only after the user agrees. Give each"
      + " cell of a sweep a key and the sweep a group.";

  private McpMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 0) {
      boolean help = args[0].equals("-h") || args[0].equals("--help");
      (help ? System.out : System.err).println(help ? USAGE : "gq: 'gq mcp' takes no arguments; " + USAGE);
      System.exit(help ? 0 : 2);
    }
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    GqTools tools = new GqTools(GqRunner.client(System.getenv()), System.getProperty("user.dir"), Instant::now);
    PendingRequests pending = new PendingRequests();
    var transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
        pending.watch(new FileInputStream(FileDescriptor.in)), pending.watch(new FileOutputStream(FileDescriptor.out)));
    McpSyncServer server = McpServer.sync(transport)
        .serverInfo("gq", Release.VERSION)
        .instructions(INSTRUCTIONS)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(specifications(tools))
        .immediateExecution(true) // one call at a time, in the order sent: a cancel never overtakes its submit
        .build();
    // the input's end stops the server; it is passed on once each request read before it has its answer
    pending.awaitEnded();
    server.closeGracefully();
    System.exit(0);
  }

  static List<SyncToolSpecification> specifications(GqTools tools) {
    List<SyncToolSpecification> specs = new ArrayList<>();
    for (Tool t : tools.all()) {
      McpSchema.Tool tool = McpSchema.Tool.builder().name(t.name()).description(t.description())
          .inputSchema(t.inputSchema()).build();
      specs.add(new SyncToolSpecification(tool, (exchange, request) -> result(tools.call(t.name(), request.arguments()))));
    }
    return specs;
  }

  private static McpSchema.CallToolResult result(Reply reply) {
    return McpSchema.CallToolResult.builder().addTextContent(reply.text()).isError(reply.error()).build();
  }
}
