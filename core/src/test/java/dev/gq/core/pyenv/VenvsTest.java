package dev.gq.core.pyenv;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class VenvsTest {
  private static final Path HOME = Path.of("/home/u");
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin", "PYTHONHOME", "/x");

  private static Predicate<Path> files(String... paths) {
    Set<Path> s = new java.util.HashSet<>();
    for (String p : paths) s.add(Path.of(p));
    return s::contains;
  }

  @Test
  void theNearestVenvAboveTheWorkingDirectoryRunsPythonWithAnActivatedEnvironment() {
    var exists = files("/home/u/proj/.venv/bin/python", "/home/u/.venv/bin/python");
    var c = Venvs.choose(List.of("python", "train.py"), ENV, Path.of("/home/u/proj/src"), HOME, null, false, exists);
    assertEquals(Path.of("/home/u/proj/.venv"), c.dir());
    assertEquals("../.venv", c.shown());
    assertEquals(List.of("/home/u/proj/.venv/bin/python", "train.py"), c.argv());
    assertEquals("/home/u/proj/.venv/bin:/usr/bin:/bin", c.env().get("PATH"));
    assertEquals("/home/u/proj/.venv", c.env().get("VIRTUAL_ENV"));
    assertFalse(c.env().containsKey("PYTHONHOME"));
    assertEquals("./.venv", Venvs.choose(List.of("python"), ENV, Path.of("/home/u/proj"), HOME, null, false, exists).shown());
  }

  @Test
  void aConsoleScriptIsTakenFromTheVenvWhenItHoldsIt() {
    var exists = files("/w/.venv/bin/python", "/w/.venv/bin/accelerate");
    assertEquals("/w/.venv/bin/accelerate",
        Venvs.choose(List.of("accelerate", "launch", "t.py"), ENV, Path.of("/w"), HOME, null, false, exists).argv().get(0));
    assertNull(Venvs.choose(List.of("bash", "-c", "x"), ENV, Path.of("/w"), HOME, null, false, exists), "not in the venv");
  }

  @Test
  void theSearchStopsAtTheRepositoryRootAndTheHomeDirectory() {
    var aboveRepo = files("/w/.venv/bin/python", "/w/repo/.git");
    assertNull(Venvs.choose(List.of("python"), ENV, Path.of("/w/repo/sub"), HOME, null, false, aboveRepo));
    var aboveHome = files("/home/.venv/bin/python");
    assertNull(Venvs.choose(List.of("python"), ENV, Path.of("/home/u/p"), HOME, null, false, aboveHome));
  }

  @Test
  void nothingIsLookedForWithAnActiveEnvironmentUvAPathOrNoVenv() {
    var exists = files("/w/.venv/bin/python", "/w/.venv/bin/uv");
    assertNull(Venvs.choose(List.of("python"), Map.of("VIRTUAL_ENV", "/other"), Path.of("/w"), HOME, null, false, exists));
    assertNull(Venvs.choose(List.of("python"), Map.of("CONDA_PREFIX", "/c"), Path.of("/w"), HOME, null, false, exists));
    assertNull(Venvs.choose(List.of("uv", "run", "t.py"), ENV, Path.of("/w"), HOME, null, false, exists));
    assertNull(Venvs.choose(List.of("./python"), ENV, Path.of("/w"), HOME, null, false, exists));
    assertNull(Venvs.choose(List.of("python"), ENV, Path.of("/w"), HOME, null, true, exists));
  }

  @Test
  void aGivenVenvWinsEvenOverAnActiveOneAndABadOneIsRefused() {
    var exists = files("/v", "/v/bin/python", "/v/pyvenv.cfg", "/w/.venv/bin/python");
    var c = Venvs.choose(List.of("python"), Map.of("VIRTUAL_ENV", "/other"), Path.of("/w"), HOME, Path.of("/v"), false, exists);
    assertEquals("/v/bin/python", c.argv().get(0));
    assertEquals("/v", c.shown());
    assertNull(Venvs.problem(Path.of("/v"), "python", exists));
    assertEquals("--venv /nope: no such directory", Venvs.problem(Path.of("/nope"), "python", exists));
    assertTrue(Venvs.problem(Path.of("/v"), "accelerate", exists).contains("has no bin/accelerate"));
    assertTrue(Venvs.problem(Path.of("/w"), "python", files("/w")).contains("is not a virtual environment"));
  }
}
