# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/slurm-gq.sh (sourced by bench/run.sh): gq sending jobs to the run's single-node Slurm
# (`--to slurm`) next to sbatch alone: one job's submit, and a sweep of SWEEP_CELLS cells in one
# call (gq submit --batch; sbatch --array) and in one call per cell. For the sweeps (and the
# "until queued" figures) the partition is DOWN: Slurm queues the jobs and starts none, so only the
# submit is timed; each one is then cancelled before the next.

# slurm_queued: how many of the run's jobs Slurm holds pending (array tasks one each)
slurm_queued() { squeue -h -r -t PD -p bench -o %i 2>/dev/null | grep -c . || true; }

# slurm_until_queued N T0_US: waits until Slurm holds N pending jobs; ms since T0_US (1 when not in 300 s)
slurm_until_queued() {
  local deadline=$((SECONDS + 300))
  until (($(slurm_queued) >= $1)); do
    ((SECONDS < deadline)) || { note "slurm: $(slurm_queued) of $1 jobs queued after 300 s"; return 1; }
    sleep 0.02
  done
  ms_between "$2" "$(now_us)"
}

# slurm_clear: cancels the run's Slurm jobs (gq's through gq first) and waits for an empty queue
slurm_clear() {
  if [[ -n ${GQ_CONFIG-} ]]; then
    "$gq" cancel --group bench-slurm -y >/dev/null 2>&1 || true
    wait_no_live_jobs 120 || note "slurm: gq still had live jobs 120 s after \`gq cancel --group bench-slurm\`"
  fi
  scancel -p bench >/dev/null 2>&1 || true
  local deadline=$((SECONDS + 120))
  until [[ -z $(squeue -h -p bench 2>/dev/null) ]]; do
    ((SECONDS < deadline)) || die "slurm: jobs still queued 120 s after scancel"
    sleep 0.05
  done
}

# slurm_gq_start: a gq daemon whose jobs go to this run's Slurm (SLURM_CONF from slurm_start,
# the config file with a profile for the bench partition and a 500 ms squeue poll); 1 (with a
# note, the daemon stopped) when this build's gq has no --to. The help is asked with the
# instance's directories set: the client may start a daemon to answer it.
slurm_gq_start() {
  use_instance slurm 4
  export GQ_CONFIG=$work/slurm/gq-config.toml
  printf 'slurm_poll = "500ms"\n\n[slurm.default]\npartition = "bench"\n' >"$GQ_CONFIG"
  start_daemon
  if ! "$gq" run --help 2>&1 | grep -q -- '--to'; then
    note "slurm: this build's gq has no --to (sending jobs to Slurm): only sbatch's side of the comparison is measured"
    stop_daemon force
    unset GQ_CONFIG
    return 1
  fi
}

# timed_sweep WHO CHART LABEL CALLS CMD...: runs CMD (which submits the SWEEP_CELLS cells), timed
# until it returns and until Slurm holds every cell; its two rows, WHO's point in CHART, then clears
timed_sweep() {
  local who=$1 chart_name=$2 label=$3 calls=$4 t0 t1 t2
  shift 4
  t0=$(now_us)
  "$@" >/dev/null || die "slurm: $label failed"
  t1=$(now_us)
  t2=$(slurm_until_queued "$SWEEP_CELLS" "$t0") || die "slurm: $label: not every cell was queued in Slurm"
  sweep_row "$label" "$calls" "$(ms_between "$t0" "$t1")" "$t2"
  chart "$chart_name" ms low "$who" "$t2"
  slurm_clear
}

# sbatch_loop N / gq_key_loop N: a sweep as a shell loop, one submit per cell
sbatch_loop() {
  local i
  for ((i = 0; i < $1; i++)); do "${sbatch_q[@]}" --wrap true || return 1; done
}
gq_key_loop() {
  local i
  for ((i = 0; i < $1; i++)); do "$gq" --to slurm -g 0 --group bench-slurm --key "k$i" true >/dev/null || return 1; done
}

# sweep_row LABEL CALLS CLI_MS QUEUED_MS: the rows of one sweep's submit
sweep_row() {
  row1 "slurm: $SWEEP_CELLS-cell sweep, $1: whole submit ($2)" "$3" ms "-" "-"
  row1 "slurm: $SWEEP_CELLS-cell sweep, $1: first call invoked -> all $SWEEP_CELLS pending in Slurm" "$4" ms "-" "-"
}

# one_queued_latency KEY CMD...: START_RUNS times CMD (one job) on the down partition, from its
# invocation until Slurm holds the job; ms per run into $work/res/KEY
one_queued_latency() {
  local key=$1 i t0
  shift
  : >"$work/res/$key"
  for ((i = 1; i <= START_RUNS; i++)); do
    t0=$(now_us)
    "$@" >/dev/null || die "slurm: $* failed"
    slurm_until_queued 1 "$t0" >>"$work/res/$key" || die "slurm: $* was not queued"
    slurm_clear
  done
  say "  $key: $(stats "$work/res/$key" | awk '{printf "n=%s median %s ms", $1, $2}')"
}

# part_slurm_gq: the comparison, inside part_slurm with Slurm up and its queue empty
part_slurm_gq() {
  local n=$SWEEP_CELLS gq_ok=1 sbatch_q=(sbatch -Q -o /dev/null --chdir "$work/slurm/jobs")
  say "== slurm: gq --to slurm next to sbatch alone (submit; $n-cell sweeps)"
  slurm_gq_start || gq_ok=0
  if ((gq_ok)); then
    measure slurm_gq_submit "$RUNS" 0 "$gq" --to slurm -g 0 --group bench-slurm true
    row "slurm: gq --to slurm -g 0 true (submit, whole CLI process; the daemon runs sbatch after it answers)" "$work/res/slurm_gq_submit" ms "-" "-"
    chart "submit one job to Slurm (whole command): gq --to slurm vs sbatch" ms low gq "$(median_of "$work/res/slurm_gq_submit")"
    chart "submit one job to Slurm (whole command): gq --to slurm vs sbatch" ms low slurm "$(median_of "$work/res/slurm_submit")"
    slurm_clear
  fi

  scontrol update PartitionName=bench State=DOWN || die "slurm: cannot set the partition down"
  one_queued_latency slurm_queued_one "${sbatch_q[@]}" --wrap true
  row "slurm: sbatch --wrap true: invoked -> pending in Slurm (partition down)" "$work/res/slurm_queued_one" ms "-" "-"
  if ((gq_ok)); then
    one_queued_latency slurm_gq_queued_one "$gq" --to slurm -g 0 --group bench-slurm true
    row "slurm: gq --to slurm -g 0 true: invoked -> pending in Slurm (partition down; slurm_poll 500ms)" "$work/res/slurm_gq_queued_one" ms "-" "-"
    chart "submit one job to Slurm, until Slurm holds it" ms low gq "$(median_of "$work/res/slurm_gq_queued_one")"
    chart "submit one job to Slurm, until Slurm holds it" ms low slurm "$(median_of "$work/res/slurm_queued_one")"
  fi

  # the sweep in one call
  timed_sweep slurm "$n-cell sweep to Slurm in one call, until all queued" \
    "one sbatch --array=0-$((n - 1)) --wrap true" "1 call" "${sbatch_q[@]}" --array="0-$((n - 1))" --wrap true
  if ((gq_ok)); then
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/slurm/sweep.batch"
    timed_sweep gq "$n-cell sweep to Slurm in one call, until all queued" \
      "gq submit --to slurm -g 0 --batch FILE ($n lines of true)" "1 call" \
      "$gq" submit --to slurm -g 0 --group bench-slurm --batch "$work/slurm/sweep.batch"
  fi

  # the sweep as a shell loop, one call per cell
  timed_sweep slurm "$n-cell sweep to Slurm, one call per cell, until all queued" \
    "$n sbatch --wrap true calls from a shell loop" "$n calls" sbatch_loop "$n"
  if ((gq_ok)); then
    timed_sweep gq "$n-cell sweep to Slurm, one call per cell, until all queued" \
      "$n gq --to slurm -g 0 --key kN true calls from a shell loop" "$n calls" gq_key_loop "$n"
    stop_daemon force
    unset GQ_CONFIG
  fi
  scontrol update PartitionName=bench State=UP || die "slurm: cannot set the partition up again"
}
