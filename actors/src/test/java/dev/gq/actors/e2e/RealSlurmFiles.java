package dev.gq.actors.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;

/**
 * The files of a {@link RealSlurm}: the directories, a fresh munge key, one character device per
 * fake GPU (the null device's numbers, made with mknod) listed in gres.conf, and slurm.conf: one
 * node on 127.0.0.1 on free ports with those GPUs as GRES, consumable CPUs, Linux process tracking,
 * no task plugin and no accounting; the scheduler runs at once on every change, a stopped
 * controller is noticed within seconds, a cancelled job's processes get SIGKILL 5 s after
 * SIGTERM, and a requeued job may start again 11 s later (cred_expire=10; the default holds it
 * for 121 s).
 */
final class RealSlurmFiles {
  private RealSlurmFiles() {}

  /** Writes every file of a Slurm in {@code dir}; skips the test when the devices cannot be made. */
  static void write(Path dir, String node, int gpus, int minJobAgeS, Path mknod) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    // munged wants every directory above its socket searchable by all, and its own not writable
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    searchableAbove(dir);
    for (String d : List.of("state", "spool", "munge", "dev")) Files.createDirectories(dir.resolve(d));
    Files.setPosixFilePermissions(dir.resolve("munge"), PosixFilePermissions.fromString("rwxr-xr-x"));
    byte[] key = new byte[1024];
    new SecureRandom().nextBytes(key);
    Files.write(dir.resolve("munge.key"), key);
    Files.setPosixFilePermissions(dir.resolve("munge.key"), PosixFilePermissions.fromString("rw-------"));
    StringBuilder gres = new StringBuilder();
    for (int i = 0; i < gpus; i++) {
      Path dev = dir.resolve("dev").resolve("gpu" + i);
      Process p = new ProcessBuilder(mknod.toString(), dev.toString(), "c", "1", "3").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor() != 0) RealSlurm.unavailable("cannot make the fake GPU device " + dev + " with mknod: " + out);
      gres.append("NodeName=").append(node).append(" Name=gpu File=").append(dev).append('\n');
    }
    Files.writeString(dir.resolve("gres.conf"), gres);
    Files.writeString(dir.resolve("slurm.conf"), text(dir, node, freePort(), freePort(), gpus, minJobAgeS));
  }

  /** The host name slurmd and slurmctld take as their own (the short name). */
  static String shortHostName() throws IOException {
    String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    int dot = h.indexOf('.');
    return dot < 0 ? h : h.substring(0, dot);
  }

  /**
   * Lets all search (not list) the directories above {@code dir} inside the temporary directory
   * (a test's own, made 0700); one elsewhere that is not searchable is a failure naming it.
   */
  private static void searchableAbove(Path dir) throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
    for (Path p = dir.toRealPath().getParent(); p != null; p = p.getParent()) {
      var perms = Files.getPosixFilePermissions(p);
      if (perms.contains(PosixFilePermission.OTHERS_EXECUTE)) continue;
      if (!p.startsWith(tmp) || p.equals(tmp)) {
        throw new AssertionError("munged needs every directory above its socket searchable by all; " + p + " is not: chmod o+x it or use another directory");
      }
      perms.add(PosixFilePermission.GROUP_EXECUTE);
      perms.add(PosixFilePermission.OTHERS_EXECUTE);
      Files.setPosixFilePermissions(p, perms);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String text(Path dir, String node, int controllerPort, int nodePort, int gpus, int minJobAgeS) {
    int cpus = Math.max(8, 2 * gpus);
    return """
        # written by the gq tests for one Slurm in this directory
        ClusterName=gqtest
        SlurmctldHost=%1$s(127.0.0.1)
        SlurmUser=root
        SlurmdUser=root
        AuthType=auth/munge
        CredType=cred/munge
        AuthInfo=socket=%2$s/munge/munge.sock,cred_expire=10
        SlurmctldPort=%3$d
        SlurmdPort=%4$d
        StateSaveLocation=%2$s/state
        SlurmdSpoolDir=%2$s/spool
        SlurmctldPidFile=%2$s/slurmctld.pid
        SlurmdPidFile=%2$s/slurmd.pid
        SlurmctldLogFile=%2$s/slurmctld.log
        SlurmdLogFile=%2$s/slurmd.log
        ProctrackType=proctrack/linuxproc
        TaskPlugin=task/none
        SelectType=select/cons_tres
        SelectTypeParameters=CR_CPU
        SlurmdParameters=config_overrides
        GresTypes=gpu
        AccountingStorageType=accounting_storage/none
        JobAcctGatherType=jobacct_gather/none
        JobCompType=jobcomp/none
        MpiDefault=none
        ReturnToService=2
        MinJobAge=%5$d
        MessageTimeout=2
        KillWait=5
        SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
        NodeName=%1$s NodeAddr=127.0.0.1 CPUs=%6$d RealMemory=1000%7$s State=UNKNOWN
        PartitionName=gqtest Nodes=%1$s Default=YES MaxTime=INFINITE State=UP
        """.formatted(node, dir, controllerPort, nodePort, minJobAgeS, cpus, gpus > 0 ? " Gres=gpu:" + gpus : "");
  }
}
