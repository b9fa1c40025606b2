package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class TrainerStateTest {
  @Test
  void readsTheStepAndTheMaximumOfAHuggingFaceCheckpoint() {
    assertEquals(Reading.of(Source.CHECKPOINT, 4500, 22500), TrainerState.parse(Fixtures.text("trainer_state.json")));
  }

  @Test
  void takesOnlyTopLevelKeysNotNestedOnesOrTextInStrings() {
    String json = "{\"trial_name\": \"run \\\"global_step\\\": 7\", \"trial_params\": {\"max_steps\": 5,"
        + " \"global_step\": 3}, \"log_history\": [{\"global_step\": 2}], \"global_step\" : 40, \"max_steps\":100}";
    assertEquals(Reading.of(Source.CHECKPOINT, 40, 100), TrainerState.parse(json));
  }

  @Test
  void readsNothingFromAStateWithoutBothNumbersOrWithImpossibleOnes() {
    for (String bad : new String[] {"", "{", "{\"global_step\": 5}", "{\"max_steps\": 5}",
        "{\"global_step\": 5, \"max_steps\": -1}", "{\"global_step\": 9, \"max_steps\": 5}",
        "{\"global_step\": 1.5, \"max_steps\": 5}", "{\"global_step\": \"3\", \"max_steps\": 5}",
        "{\"global_step\": 3, \"max_steps\": 0}", "{\"global_step\": 3, \"max_steps\": 5", null}) {
      assertNull(TrainerState.parse(bad), String.valueOf(bad));
    }
  }
}
