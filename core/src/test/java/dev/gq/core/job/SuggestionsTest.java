package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  static final List<String> COMMANDS = List.of("run", "submit", "ps", "show", "logs", "gpu", "cancel",
      "events", "groups", "wait", "retry", "recover", "rm", "clean", "daemon", "help");

  @Test
  void swappedLettersCountAsOneEdit() {
    assertEquals(List.of("submit"), Suggestions.closest("sumbit", COMMANDS));
    assertEquals(List.of("cancel"), Suggestions.closest("cancle", COMMANDS));
    assertEquals(List.of("logs"), Suggestions.closest("lgos", COMMANDS));
    assertEquals(List.of("ps"), Suggestions.closest("sp", COMMANDS));
    assertEquals(1, Suggestions.distance("ab", "ba"));
    assertEquals(3, Suggestions.distance("", "abc"));
  }

  @Test
  void missingOrExtraLettersAndCaseAreForgiven() {
    assertEquals(List.of("events"), Suggestions.closest("evnts", COMMANDS));
    assertEquals(List.of("submit"), Suggestions.closest("SUBMIT", COMMANDS));
    assertEquals(List.of("--gpus"), Suggestions.closest("--gpu", List.of("--name", "--gpus", "-g")));
    assertEquals(List.of("--gpus"), Suggestions.closest("-gpus", List.of("--gpus")));
  }

  @Test
  void tiesAreAllNamedInOrder() {
    assertEquals(List.of("ps", "rm"), Suggestions.closest("pm", COMMANDS));
  }

  @Test
  void aWordUnlikeEveryNameFindsNothing() {
    assertEquals(List.of(), Suggestions.closest("frobnicate", COMMANDS));
    assertEquals(List.of(), Suggestions.closest("python", COMMANDS));
    assertEquals(List.of(), Suggestions.closest("-x", List.of("-h", "--help")), "a single letter is no typo of another");
    assertEquals(List.of(), Suggestions.closest("git", COMMANDS));
  }
}
