package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/schemas/batch-line.schema.json agrees with gq's own reading of a JSON batch line
 * ({@link BatchJson}): every example the documentation shows is valid against it and accepted by
 * gq, and the lines gq refuses for their shape are invalid against it too.
 */
class BatchLineSchemaTest {
  private static final String SCHEMA = "batch-line.schema.json";
  @TempDir Path dir;

  private BatchDefaults defaults() {
    return new BatchDefaults(1, null, null, dir.toString(), dir, Map.of(), Scheduling.NONE);
  }

  @Test
  void everyDocumentedExampleLineIsValidAndAccepted() throws IOException {
    List<String> examples = documentedLines();
    assertTrue(examples.size() >= 4, "examples found: " + examples);
    for (String line : examples) {
      JsonNode n = JsonSchemas.parse(line);
      JsonSchemas.check(SCHEMA, n);
      if (n.hasNonNull("cwd")) Files.createDirectories(dir.resolve(n.get("cwd").asText()));
      BatchJson.spec(line, defaults());
    }
  }

  @Test
  void linesGqAcceptsAreValid() {
    for (String line : List.of(
        "{\"argv\": [\"x\"]}",
        "{\"argv\": [\"x\", \"\"], \"gpus\": null, \"name\": null, \"after\": null, \"time\": null}",
        "{\"argv\": [\"x\"], \"after\": [], \"after_ok\": 3, \"retries\": 100, \"gpus\": 0, \"time\": \"2w3d\"}",
        "{\"argv\": [\"x\"], \"name\": \"caf\\u00e9 \\u5b66\", \"key\": \"lr/3e-4\", \"time\": \" 45m \"}")) {
      BatchJson.spec(line, defaults());
      JsonSchemas.check(SCHEMA, JsonSchemas.parse(line));
    }
  }

  @Test
  void linesGqRefusesForTheirShapeAreInvalid() {
    for (String line : List.of(
        "{}",
        "{\"argv\": []}",
        "{\"argv\": \"python x.py\"}",
        "{\"argv\": [\"\"]}",
        "{\"argv\": [\"x\", 3]}",
        "{\"argv\": [\"x\"], \"gpu\": 1}",
        "{\"argv\": [\"x\"], \"gpus\": -1}",
        "{\"argv\": [\"x\"], \"gpus\": \"2\"}",
        "{\"argv\": [\"x\"], \"retries\": 101}",
        "{\"argv\": [\"x\"], \"after\": 0}",
        "{\"argv\": [\"x\"], \"after_ok\": [\"12\"]}",
        "{\"argv\": [\"x\"], \"time\": \"1.5h\"}",
        "{\"argv\": [\"x\"], \"time\": \"0s\"}",
        "{\"argv\": [\"x\"], \"time\": \"30m2h\"}",
        "{\"argv\": [\"x\"], \"time\": 3600}",
        "{\"argv\": [\"x\"], \"name\": \"\"}",
        "{\"argv\": [\"x\"], \"group\": \"  \"}",
        "{\"argv\": [\"x\"], \"key\": \"a\\u202eb\"}",
        "{\"argv\": [\"x\"], \"name\": \"a\\nb\"}",
        "{\"argv\": [\"x\"], \"name\": \"" + "n".repeat(201) + "\"}",
        "{\"argv\": [\"x\"], \"cwd\": \"\"}")) {
      assertThrows(IllegalArgumentException.class, () -> BatchJson.spec(line, defaults()), line);
      assertFalse(JsonSchemas.problems(SCHEMA, JsonSchemas.parse(line)).isEmpty(), "valid against the schema: " + line);
    }
  }

  @Test
  void theSchemaListsExactlyTheMembersGqReads() {
    List<String> members = new ArrayList<>();
    JsonSchemas.parse(read(JsonSchemas.DIR.resolve(SCHEMA))).get("properties").fieldNames().forEachRemaining(members::add);
    assertEquals(BatchJson.FIELDS, members);
  }

  /** Every JSON batch line shown in README.md and the docs: each {"argv" ...} object, in code spans or blocks. */
  private static List<String> documentedLines() throws IOException {
    Path root = JsonSchemas.DIR.getParent().getParent();
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<String> out = new ArrayList<>();
    for (Path doc : docs) {
      String text = read(doc);
      for (int at = text.indexOf("{\"argv\""); at >= 0; at = text.indexOf("{\"argv\"", at + 1)) {
        // an example may wrap inside a paragraph; JSON strings hold no raw newline, so this only joins it
        out.add(object(text, at).replaceAll("\\s*\\n\\s*", " "));
      }
    }
    return out;
  }

  /** The JSON object that starts at {@code at}: up to its matching brace, braces inside strings skipped. */
  private static String object(String text, int at) {
    int depth = 0;
    boolean inString = false;
    for (int i = at; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') i++;
        else if (c == '"') inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return text.substring(at, i + 1);
      }
    }
    throw new AssertionError("unterminated example at " + at + ": " + text.substring(at, Math.min(text.length(), at + 80)));
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
