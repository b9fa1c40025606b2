package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a submitted job runs: --to, the configuration file's default, and the refusals. */
class ClusterChoiceTest {
  @TempDir Path dir;

  private Map<String, String> env(String toml) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path sbatch = bin.resolve("sbatch");
    Files.writeString(sbatch, "#!/bin/sh\n");
    sbatch.toFile().setExecutable(true);
    Path f = dir.resolve("config.toml");
    if (toml != null) Files.writeString(f, toml);
    return Map.of("GQ_CONFIG", f.toString(), "PATH", bin.toString());
  }

  private static SubmitOptions to(String target) {
    SubmitOptions o = new SubmitOptions();
    o.to = target;
    return o;
  }

  private static JobSpec spec() {
    return new JobSpec(List.of("python", "x.py"), "/w", Map.of(), 1, null, null, null);
  }

  @Test
  void toPicksTheProfileAndTheFileTheDefault() throws Exception {
    Map<String, String> env = env("to = \"slurm:a100\"\n[slurm.a100]\npartition = \"gpu\"\n");
    assertEquals("a100", ClusterChoice.profile(new SubmitOptions(), env));
    assertNull(ClusterChoice.profile(to("local"), env));
    assertEquals("default", ClusterChoice.profile(to("slurm"), env), "the default profile needs no table");
    assertEquals("a100", ClusterChoice.apply(spec(), to("slurm:a100"), env, new FakeIo(dir)).cluster());
    assertNull(ClusterChoice.profile(new SubmitOptions(), Map.of("GQ_CONFIG", dir.resolve("none.toml").toString())),
        "no file: this machine");
  }

  @Test
  void refusalsAreOneLineNamingWhatToDo() throws Exception {
    Map<String, String> env = env("[slurm.a100]\n");
    assertTrue(assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm:h100"), env)).getMessage()
        .contains("add a [slurm.h100] table"));
    assertThrows(UsageException.class, () -> ClusterChoice.profile(to("cloud"), env));
    assertTrue(assertThrows(UsageException.class, () -> ClusterChoice.apply(spec().withPriority(5), to("slurm"), env, new FakeIo(dir)))
        .getMessage().contains("--priority"));
    SubmitOptions conda = to("slurm");
    conda.conda = "base";
    assertThrows(UsageException.class, () -> ClusterChoice.apply(spec(), conda, env, new FakeIo(dir)));
    Map<String, String> noSbatch = Map.of("GQ_CONFIG", dir.resolve("config.toml").toString(), "PATH", "/nonexistent");
    assertTrue(assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm"), noSbatch)).getMessage()
        .contains("sbatch is not on the daemon's PATH"));
  }

  @Test
  void aBrokenFileStopsClusterSubmitsButNotLocalOnes() throws Exception {
    Map<String, String> env = env("[slurm.a100]\npartiton = \"gpu\"\n");
    assertNull(ClusterChoice.profile(to("local"), env));
    String why = assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm"), env)).getMessage();
    assertTrue(why.contains("unknown key slurm.a100.partiton"), why);
    Map<String, String> garbage = env("this is = = not toml");
    String bad = assertThrows(RefusedException.class, () -> ClusterChoice.profile(new SubmitOptions(), garbage)).getMessage();
    assertTrue(bad.contains("is not valid TOML"), bad);
  }

  @Test
  void aConfigurationFileThatIsAPipeOrNotUtf8IsOneLineNotAHang() throws Exception {
    Map<String, String> env = env(null);
    Path f = Path.of(env.get("GQ_CONFIG"));
    new ProcessBuilder("mkfifo", f.toString()).start().waitFor();
    String pipe = assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm"), env)).getMessage();
    assertTrue(pipe.contains("is not a regular file"), pipe);
    Files.delete(f);
    Files.write(f, new byte[] {'t', 'o', ' ', '=', ' ', '"', (byte) 0xff, '"', '\n'});
    String bytes = assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm"), env)).getMessage();
    assertTrue(bytes.contains("is not UTF-8 text"), bytes);
    Path real = dir.resolve("real.toml");
    Files.writeString(real, "[slurm.a100]\n");
    Files.delete(f);
    Files.createSymbolicLink(f, real);
    assertEquals("a100", ClusterChoice.profile(to("slurm:a100"), env), "a link to a file is read");
  }

  @Test
  void aCallersGqConfigThatTheDaemonDoesNotReadIsRefusedNamingRestart() throws Exception {
    Map<String, String> daemon = env("to = \"slurm:a100\"\n[slurm.a100]\n");
    FakeIo caller = new FakeIo(dir);
    caller.env.put("GQ_CONFIG", "other.toml");
    String why = assertThrows(RefusedException.class, () -> ClusterChoice.profile(new SubmitOptions(), daemon, caller)).getMessage();
    assertEquals("GQ_CONFIG names " + dir.resolve("other.toml") + " here, but the daemon reads " + dir.resolve("config.toml")
        + " (the file of the environment it started with); run 'gq daemon restart' here to make it read "
        + dir.resolve("other.toml") + ", or unset GQ_CONFIG", why);
    assertThrows(RefusedException.class, () -> ClusterChoice.profile(to("slurm"), daemon, caller));
    assertNull(ClusterChoice.profile(to("local"), daemon, caller), "--to local reads no file");
    caller.env.put("GQ_CONFIG", "./config.toml");
    assertEquals("a100", ClusterChoice.profile(new SubmitOptions(), daemon, caller), "the same file, named from the caller's directory");
    caller.env.remove("GQ_CONFIG");
    assertEquals("a100", ClusterChoice.profile(new SubmitOptions(), daemon, caller), "no GQ_CONFIG here: the daemon's file");
  }

  @Test
  void aSubmitFromAShellWithAnotherGqConfigSaysSoInOneLine() throws Exception {
    Cli cli = new Cli(dir);
    cli.io.env.put("GQ_CONFIG", dir.resolve("mine.toml").toString());
    Cli.Result r = cli.run("-g", "0", "true");
    assertEquals(ExitCode.FAILED, r.code());
    assertTrue(r.err().startsWith("gq: GQ_CONFIG names " + dir.resolve("mine.toml") + " here, but the daemon reads "), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(cli.api.submitted.isEmpty());
    assertEquals(0, cli.run("-g", "0", "--to", "local", "true").code());
  }
}
