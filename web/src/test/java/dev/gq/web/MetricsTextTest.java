package dev.gq.web;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** /metrics: every line is one the Prometheus text format allows, with the series the reference names. */
class MetricsTextTest {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"");
  private static final Pattern SAMPLE = Pattern.compile(
      "(" + NAME + ")(\\{(" + LABEL + "(," + LABEL + ")*)?,?\\})? (-?[0-9.eE+-]+|NaN|[+-]Inf)");

  static String scrape() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MetricsText.write(Views.view(), new MetricsText.Health(null, List.of("gpu watcher: ok, last reading 0.4 s ago",
        "history: failing for 3 s (disk full), last update 4 s ago")), out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** A strict reading of the text exposition format: HELP and TYPE once per family, before its samples. */
  static List<String> check(String text) {
    Set<String> typed = new HashSet<>();
    List<String> samples = new ArrayList<>();
    assertTrue(text.endsWith("\n"), "the text ends with a newline");
    for (String line : text.split("\n")) {
      if (line.startsWith("# HELP ")) continue;
      if (line.startsWith("# TYPE ")) {
        String[] w = line.split(" ");
        assertEquals(4, w.length, line);
        assertTrue(NAME.matcher(w[2]).matches() && w[3].equals("gauge"), line);
        assertTrue(typed.add(w[2]), "one TYPE per family: " + line);
        continue;
      }
      var m = SAMPLE.matcher(line);
      assertTrue(m.matches(), "not a sample line: " + line);
      assertTrue(typed.contains(m.group(1)), "a sample after its TYPE: " + line);
      samples.add(line);
    }
    return samples;
  }

  @Test
  void everyLineIsValidAndEachGpuHasItsFiguresStateHolderAndHealth() throws Exception {
    List<String> samples = check(scrape());
    for (String s : List.of("gq_gpu_utilization_ratio{gpu=\"0\",uuid=\"GPU-a\"} 0.97",
        "gq_gpu_memory_used_bytes{gpu=\"0\",uuid=\"GPU-a\"} 1.073741824E10",
        "gq_gpu_temperature_celsius{gpu=\"0\",uuid=\"GPU-a\"} 71.0", "gq_gpu_power_watts{gpu=\"0\",uuid=\"GPU-a\"} 300.0",
        "gq_gpu_state{gpu=\"0\",state=\"RUNNING\",uuid=\"GPU-a\"} 1.0",
        "gq_gpu_holder{gpu=\"0\",job=\"7\",user=\"alice\",uuid=\"GPU-a\"} 1.0",
        "gq_gpu_healthy{gpu=\"1\",uuid=\"GPU-b\"} 0.0", "gq_jobs{state=\"WAITING\",user=\"alice\"} 1.0",
        "gq_daemon_up 1.0", "gq_daemon_part_ok{part=\"gpu watcher\"} 1.0", "gq_daemon_part_ok{part=\"history\"} 0.0"))
      assertTrue(samples.contains(s), s + " in " + samples);
  }

  @Test
  void anotherUsersForgedNameIsALabelValueEscapedNotALineOfItsOwn() throws Exception {
    String text = scrape();
    check(text);
    assertTrue(text.contains("gq_user_jobs_waiting{user=\"<img src=x onerror=alert(1)>\\\"'\u001b[31m\u009b&\"} 2.0"), text);
  }
}
