package dev.gq.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The published JSON Schemas (the files in {@code docs/schemas}), read by a maintained validator
 * (networknt json-schema-validator, draft 2020-12, formats asserted). A schema refers to another by
 * its file name, resolved in the same folder, so the files work as they are published. Test code,
 * shared with the end-to-end tests through this module's test jar.
 */
public final class JsonSchemas {
  /** The folder of the schemas, found upwards from the working directory (a module's directory in Maven). */
  public static final Path DIR = find(Path.of(System.getProperty("user.dir")).toAbsolutePath());
  private static final String DRAFT = "https://json-schema.org/draft/2020-12/schema";
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
      b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build())
          .schemas(JsonSchemas::published));
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Map<String, Schema> LOADED = new ConcurrentHashMap<>();

  private JsonSchemas() {}

  /** What is wrong with {@code value} as schema {@code file} describes it (e.g. "show.schema.json"); empty when valid. */
  public static List<String> problems(String file, JsonNode value) {
    return schema(file).validate(value).stream().map(Error::toString).toList();
  }

  /** Fails, naming every problem and the value, unless {@code value} is valid against {@code file}. */
  public static void check(String file, JsonNode value) {
    List<String> problems = problems(file, value);
    if (!problems.isEmpty()) {
      throw new AssertionError("not valid against docs/schemas/" + file + ": " + problems + "\nvalue: " + value);
    }
  }

  /** What is wrong with schema {@code file} itself as the draft 2020-12 meta-schema sees it; empty when valid. */
  public static List<String> metaProblems(String file) {
    JsonNode schema = parse(text(DIR.resolve(file)));
    return REGISTRY.getSchema(SchemaLocation.of(DRAFT)).validate(schema).stream().map(Error::toString).toList();
  }

  private static Schema schema(String file) {
    return LOADED.computeIfAbsent(file, f -> {
      Path p = DIR.resolve(f);
      if (!Files.isRegularFile(p)) throw new AssertionError("no schema " + p);
      return REGISTRY.getSchema(SchemaLocation.of(p.toUri().toString()));
    });
  }

  /** The text of a schema file this folder publishes, by its file: IRI; null for any other IRI (the meta-schemas). */
  private static String published(String iri) {
    String dir = DIR.toUri().toString();
    if (!iri.startsWith(dir)) return null;
    Path p = DIR.resolve(iri.substring(dir.length()));
    return Files.isRegularFile(p) ? text(p) : null;
  }

  private static String text(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code text} as one JSON value; fails, quoting it, when it is not one. */
  public static JsonNode parse(String text) {
    if (text.isBlank()) throw new AssertionError("not JSON: nothing was printed");
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + e.getMessage() + "\ntext: " + text, e);
    }
  }

  /**
   * The members schema {@code file} lists for the object it describes (for a list, for its
   * elements), following {@code $ref} and {@code allOf}: the fields scripts may rely on.
   */
  public static List<String> fields(String file) {
    JsonNode root = parse(text(DIR.resolve(file)));
    List<String> out = new java.util.ArrayList<>();
    members(root, root.has("items") ? root.get("items") : root, out);
    return out;
  }

  private static void members(JsonNode root, JsonNode node, List<String> out) {
    node.path("properties").fieldNames().forEachRemaining(out::add);
    node.path("allOf").forEach(n -> members(root, n, out));
    String ref = node.path("$ref").asText("");
    if (ref.startsWith("#/$defs/")) {
      members(root, root.get("$defs").get(ref.substring("#/$defs/".length())), out);
    } else if (!ref.isEmpty()) {
      JsonNode other = parse(text(DIR.resolve(ref)));
      members(other, other, out);
    }
  }

  /** Whether {@code text} is exactly one whole JSON value. */
  public static boolean isJson(String text) {
    try {
      return !text.isBlank() && JSON.readTree(text) != null;
    } catch (IOException e) {
      return false;
    }
  }

  private static Path find(Path from) {
    for (Path p = from; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("docs/schemas"))) return p.resolve("docs/schemas");
    }
    throw new IllegalStateException("no docs/schemas above " + from);
  }
}
