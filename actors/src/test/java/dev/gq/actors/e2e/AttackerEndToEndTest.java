package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.core.job.PrintableText;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared machine with an attacker: two users share 4 fake GPUs under a policy while a third user
 * holds a share of an interactive GPU and runs a process on another. In the honest run the third
 * user's share line and process name are plain; in the attack run the share line claims to be the
 * first user's and carries terminal escapes, the process name carries them too, the first user's
 * possible demand file names are taken ahead, a link waits at a plot's temporary name in a shared
 * folder and a lease name is hard-linked to the first user's notes. The two victims' decisions
 * (what each is charged with, and the fair share of the freed GPUs the waiting one gets: those
 * beyond the shares go to whichever daemon takes them first), their files and the text their
 * commands print are the same in both runs, and no raw control character reaches them. Needs root
 * (useradd, runuser).
 */
class AttackerEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String[] USERS = {"gq-e2e-fair-a", "gq-e2e-fair-b", "gq-e2e-fair-c"};
  private static final String ESC = "\u001b]0;PWN\u0007\u001b[31m\u009b31m\u007f";

  @TempDir Path tmp;
  private final List<Gqd> daemons = new ArrayList<>();
  private final List<Process> attacker = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (Gqd g : daemons) g.close();
    stopAttacker();
  }

  /** Ends the attacker's processes: what runuser started (flock, the sleeping "train") outlives runuser. */
  private void stopAttacker() throws Exception {
    for (Process p : attacker) p.destroyForcibly().waitFor();
    if (!attacker.isEmpty()) run("pkill", "-KILL", "-u", USERS[2]);
    attacker.clear();
  }

  /** What the victims saw and decided in one run. */
  private record Outcome(List<String> firstStarts, String precious, String notes, List<String> raw) {}

  @Test
  void anAttackersFilesChangeNeitherTheVictimsDecisionsNorTheirFilesNorTheirTerminals() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become other users");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute()
        && new File("/usr/bin/flock").canExecute(), "needs runuser, useradd and flock");
    for (String u : USERS) {
      OtherUser.make(u);
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Outcome honest = scenario(tmp.resolve("honest"), false);
    for (Gqd g : daemons) g.close();
    daemons.clear();
    stopAttacker();
    Outcome attacked = scenario(tmp.resolve("attacked"), true);
    assertEquals(List.of(), honest.raw(), "raw control characters in the honest run");
    assertEquals(List.of(), attacked.raw(), "raw control characters reached a victim's terminal");
    assertEquals(honest.firstStarts(), attacked.firstStarts(), "the freed GPUs went elsewhere under attack");
    assertEquals("precious\n", attacked.precious());
    assertEquals("notes\n", attacked.notes());
  }

  private Outcome scenario(Path root, boolean attack) throws Exception {
    Files.createDirectories(root);
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    new Gqd(root.resolve("machine"), 6, Map.of());
    Path fake = root.resolve("machine/fake");
    assertEquals(0, run("chmod", "-R", "a+rX", root.resolve("machine").toString()));
    Path leases = Files.createDirectories(root.resolve("leases"));
    assertEquals(0, run("chmod", "1777", leases.toString()));
    Path shared = Files.createDirectories(root.resolve("shared"));
    assertEquals(0, run("chmod", "0777", shared.toString()));
    Path policy = Files.createDirectories(root.resolve("etc")).resolve("policy.toml");
    Files.writeString(policy, "max_gpus_per_user = 2\nfair_turn = \"60s\"\ninteractive_gpus = [4, 5]\n");
    String cp = TwoUsersEndToEndTest.readableClassPath(root.resolve("cp"));
    Path homeA = Files.createDirectories(root.resolve("u0"));
    Path precious = Files.writeString(homeA.resolve("precious.txt"), "precious\n");
    Path notes = Files.writeString(homeA.resolve("notes.txt"), "notes\n");
    assertEquals(0, run("chown", "-R", USERS[0], homeA.toString()));

    attackerHoldsAShare(leases, attack);
    attackerComputesOnGpu5(fake, shared, attack);
    if (attack) {
      // a lease name hard-linked to the first user's notes (as where protected_hardlinks is off)
      assertEquals(0, run("ln", notes.toString(), leases.resolve(Gqd.uuid(0) + ".lease").toString()));
      // the first user's possible demand names taken ahead, and a link at a plot's temporary name
      String uidA = out("id", "-u", USERS[0]).strip();
      StringBuilder squat = new StringBuilder("cd " + leases + " && touch demand-" + uidA + "-"
          + oldName(root.resolve("u0/data").toString()) + ".demand");
      for (int i = 0; i < 16; i++) squat.append(" demand-").append(uidA).append("-").append(String.format("%016x", i)).append(".demand");
      squat.append(" && ln -s ").append(precious).append(" ").append(shared.resolve(".week.png.gq-tmp"));
      assertEquals(0, run("/usr/sbin/runuser", "-u", USERS[2], "--", "sh", "-c", squat.toString()));
    }

    Map<String, String> env = Map.of("GQ_FAKE_NVML", fake.toString(), "GQ_LEASE_DIR", leases.toString(),
        "GQ_POLICY_FILE", policy.toString());
    OtherUser a = tenant(root, 0, env, cp);
    OtherUser b = tenant(root, 1, env, cp);
    Path go = root.resolve("go");
    String untilGo = "echo start $(date +%s%N); while [ ! -e " + go + " ]; do sleep 0.02; done";
    String timed = "echo start $(date +%s%N); sleep 8";
    List<Long> aFirst = new ArrayList<>(), aNext = new ArrayList<>(), bJobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) aFirst.add(a.submit("-g", "1", "bash", "-c", untilGo));
    for (long id : aFirst) Gqd.await(USERS[0] + "'s job " + id + " to start", T, () -> a.started(id));
    for (int i = 0; i < 4; i++) aNext.add(a.submit("-g", "1", "bash", "-c", timed));
    for (int i = 0; i < 2; i++) bJobs.add(b.submit("-g", "1", "bash", "-c", timed));
    Gqd.await("the first user's gq to see the second wait", T, () -> {
      try {
        return a.gq("who").out().contains(USERS[1]);
      } catch (Exception e) {
        return false;
      }
    });
    List<String> first = new ArrayList<>();
    // what each user is charged with, as the other victim's gq counts it from the leases
    for (JsonNode u : b.who().get("users"))
      first.add(u.get("user").asText() + " holds " + u.get("gpus_held").asInt());
    first.sort(null);
    String whoBefore = a.gq("who").out() + a.gq("ps").out();
    Files.writeString(go, "");
    // who got each GPU the first user's jobs freed: the user of the first job to start on it. The
    // fair share is 1 here (4 shared GPUs, three users holding or waiting): the first user, whose
    // jobs waited longest, takes one, then leaves the next to the second user for the fair turn
    // (long, so it stays theirs however slow the machine); the two left over go to whichever daemon
    // takes them first, as the policy has it, so what is compared is that the second user got its share
    List<long[]> starts = new ArrayList<>(); // start, user, GPU
    for (long id : aNext) starts.add(new long[] {a.startedAt(id), 0, gpu(a, id)});
    for (long id : bJobs) starts.add(new long[] {b.startedAt(id), 1, gpu(b, id)});
    starts.sort(Comparator.comparingLong(s -> s[0]));
    Map<Long, Long> firstUser = new TreeMap<>();
    for (long[] s : starts) firstUser.putIfAbsent(s[2], s[1]);
    long toB = firstUser.values().stream().filter(u -> u == 1).count();
    first.add(USERS[1] + (toB >= 1 ? " got its share" : " got " + toB) + " of the " + firstUser.size() + " GPUs freed");
    if (toB < 1) {
      // what each daemon stored, for the failure: the comparison below fails on this run
      StringBuilder why = new StringBuilder("starts (ns, user, GPU):");
      for (long[] st : starts) why.append(' ').append(st[0]).append('/').append(st[1]).append('/').append(st[2]);
      why.append("\n").append(USERS[0]).append(" before the GPUs were freed:\n").append(whoBefore);
      for (OtherUser t : List.of(a, b)) why.append("\n").append(t.user()).append(" log:\n").append(t.gqd().daemonLog());
      first.add(why.toString());
    }

    List<String> raw = new ArrayList<>();
    Gqd.Result plot = a.gq("report", "--plot", shared.resolve("week.png").toString());
    assertEquals(0, plot.code(), plot.toString());
    for (OtherUser t : List.of(a, b))
      for (String[] cmd : List.of(new String[] {"gpu"}, new String[] {"gpu", "--json"}, new String[] {"who"},
          new String[] {"who", "--json"}, new String[] {"top"}, new String[] {"ps"}, new String[] {"ps", "--json"},
          new String[] {"events"}, new String[] {"show", String.valueOf(t == a ? aFirst.get(0) : bJobs.get(0))},
          new String[] {"daemon", "status"}, new String[] {"book", "--list"})) {
        Gqd.Result r = t.gq(cmd);
        String text = r.out() + r.err();
        for (int i = 0; i < text.length(); i++)
          if (text.charAt(i) != '\n' && PrintableText.hidden(text.charAt(i))) {
            raw.add(t.user() + ": gq " + String.join(" ", cmd) + ": " + PrintableText.escape(text));
            break;
          }
      }
    if (attack) {
      String gpus = a.gq("gpu").out();
      assertTrue(gpus.contains(USERS[2]), "the share is charged to the user whose process holds it:\n" + gpus);
    }
    return new Outcome(first, Files.readString(precious), Files.readString(notes), raw);
  }

  /** The GPU job {@code id} of {@code u} started on. */
  private static long gpu(OtherUser u, long id) throws Exception {
    Gqd.Result r = u.gq("show", "--json", String.valueOf(id));
    assertEquals(0, r.code(), r.toString());
    return r.json().get("gpu_indices").get(0).asLong();
  }

  /** The third user holds a share of GPU 4: the lease locked shared, a share file locked alone with its line. */
  private void attackerHoldsAShare(Path leases, boolean forged) throws Exception {
    String uidA = out("id", "-u", USERS[0]).strip();
    String uidC = out("id", "-u", USERS[2]).strip();
    String line = forged ? "gq-share mib=1024 uid=" + uidA + " user=" + USERS[0] + ESC + " job=9 data=/z" + ESC
        : "gq-share mib=1024 uid=" + uidC + " user=" + USERS[2] + " job=1 data=/c";
    Path lease = leases.resolve(Gqd.uuid(4) + ".lease");
    Path share = leases.resolve(Gqd.uuid(4) + ".share.0");
    Path lineFile = Files.writeString(leases.getParent().resolve("line-" + forged), line + "\n");
    // flock(1) holds each lock and stays alive while the command runs, as a gq daemon or shim does
    Process p = new ProcessBuilder("/usr/sbin/runuser", "-u", USERS[2], "--", "sh", "-c", "umask 0; touch " + lease + " " + share
        + "; exec /usr/bin/flock -s " + lease + " /usr/bin/flock -x " + share + " sh -c 'cat " + lineFile + " >" + share
        + "; echo held; exec sleep 600'").start();
    attacker.add(p);
    String said = new String(p.getInputStream().readNBytes(5), StandardCharsets.UTF_8);
    assertEquals("held\n", said, "the third user's share");
  }

  /** The third user runs a process on GPU 4's neighbour, GPU 5, named with terminal escapes under attack. */
  private void attackerComputesOnGpu5(Path fake, Path shared, boolean forged) throws Exception {
    String name = forged ? "train" + ESC : "train";
    Path pidFile = shared.resolve("c.pid");
    Process p = new ProcessBuilder("/usr/sbin/runuser", "-u", USERS[2], "--", "bash", "-c",
        "echo $$ > " + pidFile + "; exec -a \"$0\" sleep 600", name).start();
    attacker.add(p);
    Gqd.await("the third user's process", T, () -> {
      try {
        return Files.exists(pidFile) && !Files.readString(pidFile).isBlank();
      } catch (java.io.IOException e) {
        return false;
      }
    });
    String pid = Files.readString(pidFile).strip();
    Files.writeString(fake.resolve("procs/" + Gqd.uuid(5) + "/" + pid), "2048");
    Files.delete(pidFile);
  }

  /** The demand file name a daemon of this data directory took before names were random. */
  private static String oldName(String dataDir) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(dataDir.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(d, 0, 8);
  }

  private OtherUser tenant(Path root, int i, Map<String, String> env, String cp) throws Exception {
    Gqd g = new Gqd(root.resolve("u" + i), 0, new HashMap<>(env));
    g.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USERS[i], "--");
    g.classPath = cp;
    Files.createDirectories(g.data);
    Files.createDirectories(g.run);
    assertEquals(0, run("chown", "-R", USERS[i], root.resolve("u" + i).toString()));
    daemons.add(g);
    g.startDaemon();
    return new OtherUser(USERS[i], g);
  }

  private static int run(String... argv) throws Exception {
    return new ProcessBuilder(argv).inheritIO().start().waitFor();
  }

  private static String out(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).start();
    String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return s;
  }
}
