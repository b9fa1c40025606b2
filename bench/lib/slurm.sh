# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/slurm.sh (sourced by bench/run.sh): a single-node Slurm (slurm-wlm and munge from
# Debian) started for this run on loopback, with non-default ports and every file in the run's
# temporary directory, no systemd; stopped by PID when the part ends or the run does.

slurm_pids=()   # munged, slurmctld, slurmd of this run
slurm_settings="SchedulerParameters=batch_sched_delay=0,sched_min_interval=0; SelectType=select/cons_tres with CR_CPU; one node of 4 CPUs (SlurmdParameters=config_overrides, as 4 slots for tsp and 4 fake GPUs for gq); ProctrackType=proctrack/linuxproc; TaskPlugin=task/none; no accounting"

# free_port FROM: the first port from FROM on that nothing on 127.0.0.1 listens on
free_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

# slurm_start: munged, slurmctld and slurmd; 1 (with a note) when the node is not idle in 60 s
slurm_start() {
  local dir=$work/slurm host ctld_port d_port i
  host=$(hostname -s)
  # munged wants every directory above its socket to be searchable by all
  chmod 0711 "$work"
  mkdir -p "$dir/state" "$dir/spool" "$dir/jobs" "$dir/munge"
  chmod 0711 "$dir"
  chmod 0755 "$dir/munge"
  if command -v mungekey >/dev/null; then
    mungekey -c -k "$dir/munge.key" >/dev/null 2>&1
  else
    dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  fi
  chmod 0600 "$dir/munge.key"
  munged -F --socket="$dir/munge/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" </dev/null >"$dir/munged.out" 2>&1 &
  slurm_pids+=($!)
  echo $! >>"$work/peer.pids"
  wait_for_socket "$dir/munge/munge.sock" 20 || { note "slurm: munged did not start: $(tail -1 "$dir/munged.out")"; return 1; }
  ctld_port=$(free_port $((20000 + RANDOM % 20000)))
  d_port=$(free_port $((ctld_port + 1)))
  cat >"$dir/slurm.conf" <<EOF
# written by gq bench/run.sh for one run
ClusterName=gqbench
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=bench Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -i </dev/null >"$dir/slurmctld.out" 2>&1 &
  slurm_pids+=($!)
  echo $! >>"$work/peer.pids"
  slurmd -D </dev/null >"$dir/slurmd.out" 2>&1 &
  slurm_pids+=($!)
  echo $! >>"$work/peer.pids"
  for ((i = 0; i < 120; i++)); do
    if [[ $(sinfo -h -o '%T' 2>/dev/null) == idle ]]; then return 0; fi
    sleep 0.5
  done
  note "slurm: the node was not idle 60 s after the start ($(sinfo -h -o '%T %E' 2>&1 | head -1); $(tail -1 "$dir/slurmctld.log" 2>/dev/null))"
  return 1
}

wait_for_socket() {
  local deadline=$((SECONDS + $2))
  until [[ -S $1 ]]; do
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

# slurm_stop: ends slurmd, slurmctld and munged by PID (also from cleanup)
slurm_stop() {
  local pid deadline i
  for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do
    pid=${slurm_pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    deadline=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  slurm_pids=()
  unset SLURM_CONF
}

# slurm_idle: no job in the queue and the node idle again
slurm_idle() {
  local deadline=$((SECONDS + 120))
  until [[ -z $(squeue -h 2>/dev/null) && $(sinfo -h -o '%T' 2>/dev/null) == idle ]]; do
    ((SECONDS < deadline)) || return 1
    sleep 0.02
  done
}

slurm_submit_stamp() { sbatch -Q -o /dev/null --chdir "$work/slurm/jobs" --wrap "date +%s%N >$(printf '%q' "$1")"; }

part_slurm() {
  say "== slurm: single-node Slurm on loopback, private ports and files"
  ensure_packages slurm slurmctld slurmctld slurmd slurm-client munge || return 0
  local c
  for c in munged slurmd sbatch squeue sinfo; do
    command -v "$c" >/dev/null || { note "slurm: \`$c\` is missing after the install: skipped"; return 0; }
  done
  if ! slurm_start; then
    slurm_stop
    return 0
  fi
  echo "Slurm $(package_version slurmctld) with munge $(package_version munge), started by the script: $slurm_settings" >>"$work/peers.txt"
  note "slurm settings: $slurm_settings"

  measure slurm_submit "$RUNS" 0 sbatch -Q -o /dev/null --chdir "$work/slurm/jobs" --wrap true
  row "slurm: sbatch --wrap true (submit), controller up" "$work/res/slurm_submit" ms "-" "-"
  chart "submit one job (whole command)" ms low slurm "$(median_of "$work/res/slurm_submit")"

  idle_fn=slurm_idle
  start_latency start_slurm "$work/slurm/stamp" slurm_submit_stamp
  row "slurm: submit -> start, idle node ($START_GAP s idle before each): before \`sbatch --wrap 'date +%s%N >F'\` is invoked -> the job's first moment" \
    "$work/res/start_slurm" ms "-" "-"
  chart "submit -> start of one job, idle queue" ms low slurm "$(median_of "$work/res/start_slurm")"

  slurm_idle || die "slurm: jobs still queued"
  local i t0 bdir=$work/slurm/burst
  mkdir -p "$bdir"
  t0=$(now_us)
  for ((i = 1; i <= BURST; i++)); do slurm_submit_stamp "$bdir/$i" || die "slurm: burst submit $i failed"; done
  for ((i = 1; i <= BURST; i++)); do wait_for_file "$bdir/$i" 180 || die "slurm: burst job $i did not start within 180 s"; done
  burst_row slurm "$t0" "$(cat "$bdir"/* | sort -n | tail -1)" "\`sbatch --wrap 'date +%s%N >F'\`"
  slurm_idle || true
  part_slurm_gq
  slurm_stop
}
