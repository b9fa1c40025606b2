package dev.gq.nvml;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One GPU of a fake {@code gpus} file: {@code index uuid total_mib name...}. {@link #parse} reads
 * the whole file text; {@code #} starts a comment and blank lines are skipped. A bad line is an
 * {@link IllegalArgumentException} naming the file and the line number.
 */
record FakeGpuLine(int index, String uuid, long totalMiB, String name) {

  static List<FakeGpuLine> parse(String text, String file) {
    List<FakeGpuLine> gpus = new ArrayList<>();
    Set<Integer> indices = new HashSet<>();
    Set<String> uuids = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String where = file + " line " + (i + 1);
      int hash = lines[i].indexOf('#');
      String line = (hash >= 0 ? lines[i].substring(0, hash) : lines[i]).strip();
      if (line.isEmpty()) continue;
      FakeGpuLine gpu = parseLine(line, where);
      if (!indices.add(gpu.index())) throw bad(where, "GPU index " + gpu.index() + " repeats");
      if (!uuids.add(gpu.uuid())) throw bad(where, "GPU uuid " + gpu.uuid() + " repeats");
      gpus.add(gpu);
    }
    return List.copyOf(gpus);
  }

  private static FakeGpuLine parseLine(String line, String where) {
    String[] fields = line.split("\\s+", 4);
    if (fields.length < 4) {
      throw bad(where, "expected 'index uuid total_mib name...', got '" + line + "'");
    }
    int index;
    long totalMiB;
    try {
      index = Integer.parseInt(fields[0]);
      totalMiB = Long.parseLong(fields[2]);
    } catch (NumberFormatException e) {
      throw bad(where, "index and total_mib must be whole numbers, got '" + line + "'");
    }
    if (index < 0 || totalMiB < 0) throw bad(where, "negative number in '" + line + "'");
    if (fields[1].contains("/")) throw bad(where, "a uuid cannot contain '/': " + fields[1]);
    return new FakeGpuLine(index, fields[1], totalMiB, fields[3]);
  }

  private static IllegalArgumentException bad(String where, String what) {
    return new IllegalArgumentException("malformed fake GPU list " + where + ": " + what);
  }
}
