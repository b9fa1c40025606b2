package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventFieldsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static Map<String, Object> fields(String json) throws Exception {
    return EventFields.of(JSON.readTree(json));
  }

  @Test
  void nestedObjectsAreMergedAndNamesBecomeSnakeCase() throws Exception {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("pid", 5L);
    expected.put("boot_id", "b");
    expected.put("exit_code", null);
    assertEquals(expected, fields("{\"jobId\":1,\"identity\":{\"pid\":5,\"bootId\":\"b\"},\"exitCode\":null,\"at\":\"x\"}"));
  }

  @Test
  void anEnvironmentIsLeftOutAtAnyDepth() throws Exception {
    assertEquals(Map.of("argv", List.of("x"), "other", List.of(Map.of("a", 1L))),
        fields("{\"env\":{\"K\":\"v\"},\"spec\":{\"argv\":[\"x\"],\"env\":{\"K\":\"v\"}},\"other\":[{\"a\":1,\"env\":{}}]}"));
  }

  @Test
  void aNestedNameThatClashesKeepsItsParentAsPrefix() throws Exception {
    assertEquals(List.of("reason", "detail_reason"), List.copyOf(fields("{\"reason\":\"a\",\"detail\":{\"reason\":\"b\"}}").keySet()));
  }

  @Test
  void snakeCase() {
    assertEquals("start_ticks", EventFields.snake("startTicks"));
    assertEquals("pid", EventFields.snake("pid"));
  }
}
