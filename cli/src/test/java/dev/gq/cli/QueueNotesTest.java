package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gq.api.ApiReplies.QueueState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueNotesTest {
  private static Map<Long, String> groups(Object... idThenGroup) {
    Map<Long, String> m = new HashMap<>();
    for (int i = 0; i < idThenGroup.length; i += 2) m.put(((Number) idThenGroup[i]).longValue(), (String) idThenGroup[i + 1]);
    return m;
  }

  @Test
  void aHeldQueueAndAHeldGroupAreBothNamedWithTheirCommands() {
    QueueState q = new QueueState(true, Map.of("g", "held by the user"));
    assertEquals("the queue is held and group g is held (held by the user), so jobs 3-4 wait until"
        + " 'gq release --all' and 'gq release --group g'", QueueNotes.afterSubmit(q, groups(3, "g", 4, null)));
  }

  @Test
  void nothingIsSaidWhenNoNewJobIsKeptWaiting() {
    QueueState q = new QueueState(false, Map.of("g", "held by the user"));
    assertNull(QueueNotes.afterSubmit(q, groups(3, null, 4, "h")));
    assertNull(QueueNotes.afterSubmit(new QueueState(false, Map.of()), groups(3, "g")));
  }

  @Test
  void statusSaysNothingOfAQueueThatRunsFreely() {
    assertEquals(List.of(), QueueNotes.status(new QueueState(false, Map.of())));
  }
}
