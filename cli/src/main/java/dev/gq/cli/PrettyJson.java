package dev.gq.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/** How every {@code --json} output is formatted: two spaces a level, strings escaped by {@link JsonEscapes}. */
final class PrettyJson {
  private PrettyJson() {}

  /** The node as pretty-printed JSON text, without a trailing newline. */
  static String text(JsonNode node) {
    try {
      return Writer.PRETTY.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** Built on first use, so commands that print no JSON never pay for Jackson's set-up. */
  private static final class Writer {
    static final ObjectWriter PRETTY = new ObjectMapper().writer(printer()).with(JsonEscapes.INSTANCE);

    private static DefaultPrettyPrinter printer() {
      Separators separators = Separators.createDefaultInstance()
          .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
          .withObjectEmptySeparator("")
          .withArrayEmptySeparator("");
      DefaultIndenter indent = new DefaultIndenter("  ", "\n");
      DefaultPrettyPrinter p = new DefaultPrettyPrinter(separators);
      p.indentArraysWith(indent);
      p.indentObjectsWith(indent);
      return p;
    }
  }
}
