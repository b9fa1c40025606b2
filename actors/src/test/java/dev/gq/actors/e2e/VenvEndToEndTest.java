package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project's {@code .venv} on the real daemon: {@code gq run python ...} from a directory below the
 * project runs the venv's python with the environment an activation gives, and says so; {@code gq
 * show} names the venv; {@code --no-venv} runs the command as PATH finds it; a venv deleted before
 * its job starts ends the job with a reason that names it. The venv is a stand-in: its
 * {@code bin/python} is a shell script that prints what it was run with.
 */
class VenvEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  private static void script(Path file, String body) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void pythonRunsFromTheProjectsVenvUnlessToldOtherwise() throws Exception {
    Path project = Files.createDirectories(tmp.resolve("home/project"));
    Path sub = Files.createDirectories(project.resolve("src"));
    Path venv = project.resolve(".venv");
    script(venv.resolve("bin/python"), "echo \"venv python VIRTUAL_ENV=$VIRTUAL_ENV PATH=$PATH args=$*\"");
    script(venv.resolve("bin/accelerate"), "echo accelerate from the venv");
    Files.writeString(venv.resolve("pyvenv.cfg"), "home = /usr/bin\n");
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      Gqd.Result r = g.gqIn(sub, "run", "-g", "0", "python", "train.py", "--lr", "3e-4");
      assertEquals(0, r.code(), r.toString());
      assertEquals("gq: using ../.venv\n", r.err());
      long id = Long.parseLong(r.out().strip().substring(r.out().strip().lastIndexOf(' ') + 1));
      g.awaitState(id, "DONE", T);
      String log = Files.readString(g.data.resolve("logs/" + id + ".log"));
      assertTrue(log.contains("venv python VIRTUAL_ENV=" + venv + " PATH=" + venv.resolve("bin") + ":"), log);
      assertTrue(log.contains("args=train.py --lr 3e-4"), log);
      assertTrue(g.gq("show", String.valueOf(id)).out().contains("Venv:        " + venv), "gq show names the venv");
      JsonNode job = g.job(id);
      assertEquals(venv.resolve("bin/python").toString(), job.get("argv").get(0).asText());

      Files.writeString(sub.resolve("cells.txt"), "python a.py\npython b.py\n");
      Gqd.Result batch = g.gqIn(sub, "submit", "-g", "0", "--batch", "cells.txt", "--json");
      assertEquals(0, batch.code(), batch.toString());
      assertEquals("gq: using ../.venv\n", batch.err(), "said once for the batch");
      for (JsonNode line : batch.json()) {
        JsonNode done = g.awaitState(line.get("id").asLong(), "DONE", T);
        assertEquals(venv.resolve("bin/python").toString(), done.get("argv").get(0).asText());
      }

      Gqd.Result off = g.gqIn(sub, "run", "-g", "0", "--no-venv", "accelerate");
      assertEquals("gq: warning: no program 'accelerate' on the job's PATH; the job will fail with exit 127 unless it is"
          + " installed before the job starts\n", off.err(), "no venv to note; a program the job will not find is said at once");
      long plain = Long.parseLong(off.out().strip().substring(off.out().strip().lastIndexOf(' ') + 1));
      JsonNode failed = g.awaitState(plain, "FAILED", T);
      assertEquals(127, failed.get("exit_code").asInt(), "accelerate is not on the PATH: " + failed);

      Gqd.Result bad = g.gqIn(sub, "run", "-g", "0", "--venv", "nowhere", "python");
      assertEquals(1, bad.code(), bad.toString());
      assertTrue(bad.err().startsWith("gq: --venv " + sub.resolve("nowhere") + ": no such directory"), bad.err());
    }
  }

  @Test
  void aVenvDeletedBeforeItsJobStartsEndsTheJobWithAReasonThatNamesIt() throws Exception {
    Path project = Files.createDirectories(tmp.resolve("home/project"));
    Path venv = project.resolve(".venv");
    script(venv.resolve("bin/python"), "echo should not run");
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      Path gate = tmp.resolve("gate");
      long first = g.submit("run", "-g", "0", "sh", "-c", "while [ ! -e " + gate + " ]; do sleep 0.05; done");
      Gqd.Result r = g.gqIn(project, "run", "-g", "0", "--after", String.valueOf(first), "python", "train.py");
      long id = Long.parseLong(r.out().strip().substring(r.out().strip().lastIndexOf(' ') + 1));
      try (var files = Files.walk(venv)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
      Files.writeString(gate, "go");
      JsonNode failed = g.awaitState(id, "FAILED", T);
      String why = failed.get("failure_reason").asText();
      assertTrue(why.startsWith("the virtual environment " + venv + " is gone"), why);
    }
  }

  @Test
  void condaActivatesTheEnvironmentWithItsHooksAndAMissingOneIsRefused() throws Exception {
    Path base = tmp.resolve("conda");
    script(base.resolve("bin/conda"), "exit 0");
    // conda's shell functions, as 'conda activate' runs them: the environment's activate.d hooks too
    Files.createDirectories(base.resolve("etc/profile.d"));
    Files.writeString(base.resolve("etc/profile.d/conda.sh"), "conda() { if [ \"$1\" = activate ]; then "
        + "export CONDA_PREFIX=\"$2\"; export PATH=\"$2/bin:$PATH\"; "
        + "for f in \"$2\"/etc/conda/activate.d/*.sh; do [ -e \"$f\" ] && . \"$f\"; done; fi; }\n");
    Path env = base.resolve("envs/torch");
    Files.createDirectories(env.resolve("conda-meta"));
    Files.createDirectories(env.resolve("etc/conda/activate.d"));
    Files.writeString(env.resolve("etc/conda/activate.d/cuda.sh"), "export FROM_HOOK=yes\n");
    Path work = Files.createDirectories(tmp.resolve("home/work"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1, java.util.Map.of("CONDA_EXE", base.resolve("bin/conda").toString()))) {
      Gqd.Result r = g.gqIn(work, "run", "-g", "0", "--conda", "torch", "sh", "-c", "echo hook=$FROM_HOOK prefix=$CONDA_PREFIX");
      assertEquals(0, r.code(), r.toString());
      long id = Long.parseLong(r.out().strip().substring(r.out().strip().lastIndexOf(' ') + 1));
      g.awaitState(id, "DONE", T);
      assertEquals("hook=yes prefix=" + env + "\n", Files.readString(g.data.resolve("logs/" + id + ".log")));
      assertEquals("sh", g.job(id).get("argv").get(0).asText(), "the command is stored as given");
      assertTrue(g.gq("show", String.valueOf(id)).out().contains("Conda:       " + env));
      Gqd.Result missing = g.gqIn(work, "run", "-g", "0", "--conda", "nope", "true");
      assertEquals(1, missing.code());
      assertTrue(missing.err().startsWith("gq: --conda: no conda environment 'nope' (looked in " + base.resolve("envs")), missing.err());
    }
  }
}
