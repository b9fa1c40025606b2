package dev.gq.nvml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the GPU listing prints and the status it exits with, on fake GPUs. */
class GpuListTest {

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws IOException {
    Files.writeString(dir.resolve("gpus"), "0 GPU-aaa 81920 H100\n1 GPU-bbb 40960 A100\n");
    Files.createDirectories(dir.resolve("procs/GPU-aaa"));
    Files.writeString(dir.resolve("procs/GPU-aaa/1"), "ghost");
    Files.writeString(dir.resolve("procs/GPU-aaa/" + ProcessHandle.current().pid()), "300");
  }

  @Test
  void listsDevicesAndTheirProcesses() {
    assertEquals(0, run());
    long self = ProcessHandle.current().pid();
    assertEquals("""
        probe: fake GPUs from %s
        devices: 2
        GPU 0  GPU-aaa  H100  memory 300 MiB used of 80.0 GiB
          pid 1  memory not reported
          pid %d  300 MiB
        GPU 1  GPU-bbb  A100  memory 0 MiB used of 40.0 GiB
          no compute processes
        """.formatted(dir, self), text(out));
    assertEquals("", text(err));
  }

  @Test
  void failingDeviceIsShownAndExitsOne() throws IOException {
    Files.writeString(dir.resolve("fail-GPU-bbb"), "GPU is lost");
    assertEquals(1, run());
    assertTrue(text(out).contains("GPU 1  GPU-bbb  error: GPU is lost\n"), text(out));
    assertEquals("error: some devices could not be read\n", text(err));
  }

  @Test
  void failedReadingPrintsTheErrorAndExitsOne() throws IOException {
    Files.writeString(dir.resolve("fail"), "driver gone");
    assertEquals(1, run());
    assertEquals("probe: fake GPUs from " + dir + "\n", text(out));
    assertEquals("error: driver gone\n", text(err));
  }

  private int run() {
    return GpuList.run(new FakeGpuProbe(dir), print(out), print(err));
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static String text(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
