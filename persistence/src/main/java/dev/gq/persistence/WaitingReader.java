package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.persistence.LedgerSnapshot.Waiting;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Reads a snapshot's waiting job field by field: a snapshot of 100,000 waiting jobs is read at every
 * start, and Jackson's own way for a record (its creator's parameters gathered, each absent one
 * looked for) and its reading of each submit time took most of a start's work. The jobs of one
 * write share their submit time: it is read once. Fields it does not know are skipped, as the
 * snapshot's reader skips them; the nested values are read by Jackson as before.
 */
final class WaitingReader extends StdDeserializer<Waiting> {
  /** The last submit time read in this snapshot, its text and its value. */
  private record LastTime(String text, Instant at) {}

  private static final Object LAST_TIME = LastTime.class;

  public WaitingReader() {
    super(Waiting.class);
  }

  @Override
  public Waiting deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    long id = 0;
    int gpus = 0, retries = 0, priority = 0;
    String cwd = null, name = null, group = null, key = null, tag = null, resumeArg = null, resumeFrom = null, cluster = null;
    List<Dependency> after = null;
    Duration timeLimit = null;
    Instant at = null, begin = null;
    Long retryOf = null;
    GpuNeed gpuNeed = null;
    JsonToken t = p.currentToken() == JsonToken.START_OBJECT ? p.nextToken() : p.currentToken();
    for (; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.VALUE_NULL) continue;
      switch (field) {
        case "id" -> id = p.getValueAsLong();
        case "cwd" -> cwd = p.getValueAsString();
        case "gpus" -> gpus = p.getValueAsInt();
        case "name" -> name = p.getValueAsString();
        case "group" -> group = p.getValueAsString();
        case "key" -> key = p.getValueAsString();
        case "after" -> after = ctxt.readValue(p, dependencies(ctxt));
        case "retries" -> retries = p.getValueAsInt();
        case "timeLimit" -> timeLimit = ctxt.readValue(p, Duration.class);
        case "at" -> at = submitTime(p, ctxt);
        case "tag" -> tag = p.getValueAsString();
        case "retryOf" -> retryOf = p.getValueAsLong();
        case "priority" -> priority = p.getValueAsInt();
        case "begin" -> begin = ctxt.readValue(p, Instant.class);
        case "resumeArg" -> resumeArg = p.getValueAsString();
        case "resumeFrom" -> resumeFrom = p.getValueAsString();
        case "cluster" -> cluster = p.getValueAsString();
        case "gpuNeed" -> gpuNeed = ctxt.readValue(p, GpuNeed.class);
        default -> p.skipChildren();
      }
    }
    return new Waiting(id, cwd, gpus, name, group, key, after, retries, timeLimit, at, tag, retryOf, priority, begin,
        resumeArg, resumeFrom, cluster, gpuNeed);
  }

  private static JavaType dependencies(DeserializationContext ctxt) {
    return ctxt.getTypeFactory().constructCollectionType(List.class, Dependency.class);
  }

  /** A submit time, read once for the run of jobs that share it (the context lasts one snapshot's reading). */
  private static Instant submitTime(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) return ctxt.readValue(p, Instant.class);
    String text = p.getText();
    if (ctxt.getAttribute(LAST_TIME) instanceof LastTime last && last.text().equals(text)) return last.at();
    Instant at = ctxt.readValue(p, Instant.class);
    ctxt.setAttribute(LAST_TIME, new LastTime(text, at));
    return at;
  }
}
