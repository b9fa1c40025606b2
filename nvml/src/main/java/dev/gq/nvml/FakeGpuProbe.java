package dev.gq.nvml;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The file-driven fake of NVML ({@code GQ_FAKE_NVML=<dir>}), re-read at every {@link #read()}:
 * {@code <dir>/gpus} lists the GPUs ({@code index uuid total_mib name...}); each file
 * {@code <dir>/procs/<uuid>/<pid>} is a compute process (content: used MiB, optional), listed
 * only while {@code <procRoot>/<pid>} exists unless its content is {@code ghost}; {@code <dir>/fail}
 * fails every query with its content as the text, {@code <dir>/fail-<uuid>} fails that device;
 * {@code <dir>/figures/<uuid>} gives its utilisation, temperature and power and
 * {@code <dir>/health/<uuid>} makes it unwell ({@link FakeSignals}; {@code lost} fails the device as
 * a GPU that fell off the bus). Like the real probe it never throws. Stateless, so thread-safe.
 */
public final class FakeGpuProbe implements GpuProbe {

  private static final long MIB = 1024L * 1024L;
  private static final String GHOST = "ghost";

  private final Path dir;
  private final Path procRoot;
  private final InstantSource clock;

  /** Fake GPUs from {@code dir}, process liveness from /proc. */
  public FakeGpuProbe(Path dir) {
    this(dir, Path.of("/proc"));
  }

  public FakeGpuProbe(Path dir, Path procRoot) {
    this(dir, procRoot, InstantSource.system());
  }

  public FakeGpuProbe(Path dir, Path procRoot, InstantSource clock) {
    this.dir = dir;
    this.procRoot = procRoot;
    this.clock = clock;
  }

  @Override
  public GpuReading read() {
    Instant now = clock.instant();
    try {
      if (!Files.isDirectory(dir)) {
        return GpuReading.failed(now, "fake GPU directory " + dir + " does not exist (GQ_FAKE_NVML)");
      }
      String globalFailure = failure(dir.resolve("fail"));
      if (globalFailure != null) return GpuReading.failed(now, globalFailure);
      List<DeviceReading> devices = new ArrayList<>();
      // looked for once a reading: most fake folders have neither, and a missing file costs an exception
      Path figures = existing(dir.resolve("figures"));
      Path health = existing(dir.resolve("health"));
      for (FakeGpuLine gpu : gpus()) {
        devices.add(readDevice(gpu, figures, health));
      }
      return new GpuReading(now, devices, null);
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      return GpuReading.failed(now, e.getMessage());
    }
  }

  @Override
  public String describe() {
    return "fake GPUs from " + dir;
  }

  @Override
  public boolean fake() {
    return true;
  }

  private List<FakeGpuLine> gpus() throws IOException {
    Path file = dir.resolve("gpus");
    String text = Files.isDirectory(file) ? null : readText(file);
    if (text == null) {
      throw new IOException("fake GPU list " + file + " is missing: write one line per GPU, "
          + "'index uuid total_mib name'");
    }
    return FakeGpuLine.parse(text, file.toString());
  }

  private DeviceReading readDevice(FakeGpuLine gpu, Path figuresDir, Path healthDir) throws IOException {
    String deviceFailure = failure(dir.resolve("fail-" + gpu.uuid()));
    if (deviceFailure != null) return DeviceReading.failed(gpu.index(), gpu.uuid(), deviceFailure);
    List<GpuProcess> processes;
    try {
      processes = processes(dir.resolve("procs").resolve(gpu.uuid()));
    } catch (IllegalArgumentException e) {
      return DeviceReading.failed(gpu.index(), gpu.uuid(), e.getMessage());
    }
    GpuFigures figures;
    GpuHealth health;
    try {
      figures = signal(figuresDir, gpu.uuid(), FakeSignals::figures, GpuFigures.NONE);
      health = signal(healthDir, gpu.uuid(), FakeSignals::health, GpuHealth.NONE);
    } catch (IllegalArgumentException e) {
      return DeviceReading.failed(gpu.index(), gpu.uuid(), e.getMessage());
    }
    if (health.lost()) {
      return DeviceReading.failed(gpu.index(), gpu.uuid(),
          "nvmlDeviceGetUUID failed: NVML_ERROR_GPU_IS_LOST (fake: GPU is lost)", health);
    }
    long usedBytes = processes.stream().mapToLong(p -> Math.max(0, p.usedBytes())).sum();
    return new DeviceReading(gpu.index(), gpu.uuid(), gpu.name(), gpu.totalMiB() * MIB,
        usedBytes, processes, null, figures, health);
  }

  /** {@code folder} when it is a directory, else null. */
  private static Path existing(Path folder) {
    return Files.isDirectory(folder) ? folder : null;
  }

  /** What {@code folder/uuid} says, parsed; {@code none} when the folder (null) or the file is absent. */
  private static <T> T signal(Path folder, String uuid, BiFunction<String, String, T> parse, T none)
      throws IOException {
    if (folder == null) return none;
    Path file = folder.resolve(uuid);
    String text = readText(file);
    return text == null ? none : parse.apply(text, file.toString());
  }

  /** The processes listed under {@code procDir}, by pid; none when the folder is absent. */
  private List<GpuProcess> processes(Path procDir) throws IOException {
    if (!Files.isDirectory(procDir)) return List.of();
    List<GpuProcess> processes = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(procDir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (!name.matches("[0-9]{1,18}")) continue;  // editors' and writers' temp files
        GpuProcess process = process(file, Long.parseLong(name));
        if (process != null) processes.add(process);
      }
    } catch (NoSuchFileException e) {
      return List.of();  // removed while we looked
    }
    processes.sort(Comparator.comparingLong(GpuProcess::pid));
    return processes;
  }

  /** The process a file describes, or null when its pid is gone or the file just vanished. */
  private GpuProcess process(Path file, long pid) throws IOException {
    String content = readText(file);
    if (content == null) return null;  // the process ended and removed its file while we listed
    content = content.strip();
    if (content.equals(GHOST)) return new GpuProcess(pid, -1);
    if (!Files.exists(procRoot.resolve(Long.toString(pid)))) return null;
    if (content.isEmpty()) return new GpuProcess(pid, -1);
    try {
      long mib = Long.parseLong(content);
      if (mib < 0) throw new NumberFormatException();
      return new GpuProcess(pid, mib * MIB);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("fake process file " + file
          + " must hold used MiB, 'ghost' or nothing, not '" + content + "'");
    }
  }

  /** The failure text a fail file asks for, or null when there is no such file. */
  private static String failure(Path file) throws IOException {
    if (!Files.exists(file)) return null;
    String text = readText(file);
    if (text == null) return null;
    text = text.strip();
    return text.isEmpty() ? "fake NVML failure (" + file + " is present)" : text;
  }

  /** The file's text, or null when it does not exist; other failures name the file. */
  private static String readText(Path file) throws IOException {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new IOException("cannot read fake GPU file " + file + ": " + e, e);
    }
  }
}
