package dev.gq.core.pyenv;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class CondaTest {
  private static Predicate<Path> files(String... paths) {
    Set<Path> s = new java.util.HashSet<>();
    for (String p : paths) s.add(Path.of(p));
    return s::contains;
  }

  private static final Predicate<Path> INSTALL = files("/opt/conda/bin/conda", "/opt/conda/etc/profile.d/conda.sh",
      "/opt/conda/envs/torch/conda-meta", "/home/u/.conda/envs/mine/conda-meta", "/w/local-env/conda-meta");
  private static final Map<String, String> ENV = Map.of("CONDA_EXE", "/opt/conda/bin/conda", "HOME", "/home/u");

  @Test
  void aNamedEnvironmentIsActivatedByCondasOwnFunctionsThenTheCommandIsExeced() {
    var r = Conda.resolve("torch", ENV, Path.of("/w"), INSTALL);
    assertNull(r.problem());
    assertEquals(Path.of("/opt/conda/envs/torch"), r.prefix());
    assertEquals(List.of("bash", "-c", "source \"/opt/conda/etc/profile.d/conda.sh\" && conda activate \"/opt/conda/envs/torch\" && exec \"$@\"",
        "gq-conda", "python", "t.py"), Conda.wrap(r.base(), r.prefix(), List.of("python", "t.py")));
    assertEquals(Path.of("/home/u/.conda/envs/mine"), Conda.resolve("mine", ENV, Path.of("/w"), INSTALL).prefix());
    assertEquals(Path.of("/w/local-env"), Conda.resolve("./local-env", ENV, Path.of("/w"), INSTALL).prefix());
    assertEquals(Path.of("/opt/conda"), Conda.resolve("base", ENV, Path.of("/w"), INSTALL).prefix());
  }

  @Test
  void condaIsFoundOnThePathWithoutCondaExe() {
    var r = Conda.resolve("torch", Map.of("PATH", "/usr/bin:/opt/conda/bin"), Path.of("/w"), INSTALL);
    assertEquals(Path.of("/opt/conda/envs/torch"), r.prefix());
  }

  @Test
  void aMissingEnvironmentOrCondaIsRefusedWithTheReason() {
    String missing = Conda.resolve("nope", ENV, Path.of("/w"), INSTALL).problem();
    assertTrue(missing.startsWith("--conda: no conda environment 'nope' (looked in /opt/conda/envs, /home/u/.conda/envs)"), missing);
    assertTrue(Conda.resolve("torch", Map.of("PATH", "/usr/bin"), Path.of("/w"), INSTALL).problem()
        .startsWith("--conda needs conda"));
    assertTrue(Conda.resolve("./nope", ENV, Path.of("/w"), INSTALL).problem().contains("'./nope'"));
  }

  @Test
  void aPathWithQuotesOrDollarsCannotBreakOutOfTheScript() {
    var odd = files("/opt/conda/bin/conda", "/opt/conda/etc/profile.d/conda.sh", "/w/a\"$(x)`y`/conda-meta");
    var r = Conda.resolve("./a\"$(x)`y`", ENV, Path.of("/w"), odd);
    assertTrue(Conda.wrap(r.base(), r.prefix(), List.of("x")).get(2).contains("conda activate \"/w/a\\\"\\$(x)\\`y\\`\""));
  }
}
