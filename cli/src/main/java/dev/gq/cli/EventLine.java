package dev.gq.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.job.PrintableText;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How {@code gq events} writes one event: a text line ({@code SEQ TIME TYPE job=N key=value...};
 * no {@code job=} for an event about the queue or a group; time in UTC to the millisecond; null
 * fields left out; values with spaces or odd characters in JSON quotes; an argv as the shell
 * would read it) or one compact JSON object per line with the stable names
 * {@code seq, time, type, job_id, fields}. Pure.
 */
final class EventLine {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  /** The longest event type but one, JobCancelRequested, so that job ids line up (JobPreemptRequested, rare, pushes its own by one). */
  private static final int TYPE_WIDTH = 18;

  private EventLine() {}

  static String text(StoredEvent e) {
    StringBuilder sb = new StringBuilder();
    sb.append(e.seq()).append(' ').append(TIME.format(e.time())).append(' ');
    sb.append(e.type());
    if (e.jobId() != null) {
      sb.append(" ".repeat(Math.max(1, TYPE_WIDTH + 1 - e.type().length()))).append("job=").append(e.jobId());
    }
    for (Map.Entry<String, Object> f : e.fields().entrySet()) {
      if (empty(f.getValue())) continue;
      sb.append(' ').append(f.getKey()).append('=').append(value(f.getKey(), f.getValue()));
    }
    return sb.toString();
  }

  static String json(StoredEvent e) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("seq", e.seq());
    n.put("time", TIME.format(e.time()));
    n.put("type", e.type());
    n.put("job_id", e.jobId());  // null for an event about the queue or a group
    n.set("fields", Json.MAPPER.valueToTree(e.fields()));
    try {
      return Json.WRITER.writeValueAsString(n);
    } catch (JsonProcessingException ex) {
      throw new IllegalStateException("cannot write event " + e.seq() + " as JSON", ex);
    }
  }

  private static String value(String key, Object v) {
    if (v instanceof List<?> list && key.equals("argv") && list.stream().allMatch(String.class::isInstance)) {
      return word(ShellQuote.join(list.stream().map(String.class::cast).toList()));
    }
    if (v instanceof List<?> list && list.stream().allMatch(EventLine::simple)) {
      return String.join(",", list.stream().map(String::valueOf).toList());
    }
    if (v instanceof String s) return word(s);
    if (v instanceof Number || v instanceof Boolean) return v.toString();
    return visible(Json.compact(v));
  }

  /** A field the line leaves out: none, or an empty text, list or object. */
  private static boolean empty(Object v) {
    return v == null || v instanceof String s && s.isEmpty() || v instanceof Collection<?> c && c.isEmpty()
        || v instanceof Map<?, ?> m && m.isEmpty();
  }

  private static boolean simple(Object v) {
    return v instanceof Number || v instanceof String s && !s.isEmpty() && s.chars().allMatch(EventLine::plain);
  }

  /** The text as it is when it is one plain word, else as a JSON string (quotes, escapes). */
  private static String word(String s) {
    return !s.isEmpty() && s.chars().allMatch(EventLine::plain) ? s : visible(Json.compact(s));
  }

  /**
   * JSON text with the characters that could break or reorder a terminal line (those
   * {@link PrintableText} names; JSON escapes only the C0 ones) written as JSON u-escapes with four
   * hex digits, so the line still reads back as the same JSON.
   */
  static String visible(String json) {
    if (!PrintableText.hasHidden(json)) return json;
    StringBuilder sb = new StringBuilder(json.length() + 16);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (PrintableText.hidden(c)) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    return sb.toString();
  }

  private static boolean plain(int c) {
    return c < 128 && Character.isLetterOrDigit(c) || "_@%+=:./-".indexOf(c) >= 0;
  }

  /** Built on first use, so other commands never pay for Jackson's set-up. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final ObjectWriter WRITER = MAPPER.writer().with(JsonEscapes.INSTANCE);

    static String compact(Object v) {
      try {
        return WRITER.writeValueAsString(v);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write a value as JSON", e);
      }
    }
  }
}
