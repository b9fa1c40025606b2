package dev.gq.actors.e2e;

import java.nio.file.Path;

/**
 * The slurm.conf of a {@link RealSlurm}: one node on 127.0.0.1 with fake GRES GPUs (listed in its
 * gres.conf), consumable CPUs, Linux process tracking, no task plugin and no accounting; the
 * scheduler runs at once on every change, a stopped controller is noticed within seconds, and a
 * cancelled job's processes get SIGKILL 5 s after SIGTERM; a requeued job may start again 11 s later
 * (cred_expire=10; the default holds it for 121 s).
 */
final class RealSlurmConfig {
  private RealSlurmConfig() {}

  static String text(Path dir, String node, int controllerPort, int nodePort, int gpus, int minJobAgeS) {
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
