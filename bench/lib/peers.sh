# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/peers.sh (sourced by bench/run.sh): the same measures for task-spooler and gpuq, and
# the Debian packages the peers come from. Single-node Slurm is in bench/lib/slurm.sh.
# A peer that cannot be installed or started is noted and skipped; the run goes on.

added_policy=   # the policy-rc.d this run wrote (removed again by cleanup)

# ensure_packages WHAT CMD PKG...: installs PKG... with apt-get when CMD is missing, with a
# policy-rc.d in place so that no service starts; 1 (with a note) when it cannot
ensure_packages() {
  local what=$1 cmd=$2 log=$work/apt-$1.log
  shift 2
  command -v "$cmd" >/dev/null && return 0
  if [[ -n ${BENCH_NO_INSTALL-} ]]; then
    note "$what: \`$cmd\` is not installed and BENCH_NO_INSTALL is set: skipped"
    return 1
  fi
  if ((EUID != 0)) || ! command -v apt-get >/dev/null; then
    note "$what: \`$cmd\` is not installed, and installing it needs root and apt-get: skipped (apt-get install $*)"
    return 1
  fi
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\n# written by gq bench/run.sh while it installs packages: start no service\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 0755 /usr/sbin/policy-rc.d
    added_policy=/usr/sbin/policy-rc.d
    echo "$added_policy" >"$work/added-policy"
  fi
  say "  installing $* with apt-get ..."
  local rc=0
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends "$@" >"$log" 2>&1 || rc=$?
  if ((rc != 0)); then
    # the package lists may be missing or stale
    { DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update &&
      DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends "$@"; } >>"$log" 2>&1 && rc=0
  fi
  if [[ -n $added_policy ]]; then rm -f "$added_policy" "$work/added-policy"; added_policy=; fi
  if ((rc != 0)) || ! command -v "$cmd" >/dev/null; then
    note "$what: \`apt-get install $*\` failed ($(tail -1 "$log")): skipped"
    return 1
  fi
  note "$what: installed for this run with \`apt-get install --no-install-recommends $*\`"
}

# package_version PKG: the installed Debian version, or "?"
package_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "?"; }

# run_peer PART: runs a peer's part in a subshell (its servers, exports and a failure stay there:
# the run goes on without it); the subshell stops the peer's servers whatever happens. It runs in
# the background and is waited for, so that a signal to the script is handled at once (cleanup
# ends the subshell, whose EXIT trap stops the servers).
peer_child=
run_peer() {
  local rc=0
  rm -f "$work/last_error"
  (
    trap 'tsp_stop; slurm_stop' EXIT
    trap 'exit 143' TERM
    "$1"
  ) &
  peer_child=$!
  wait "$peer_child" || rc=$?
  peer_child=
  if ((rc != 0)); then note "${1#part_}: the part failed and was skipped ($(cat "$work/last_error" 2>/dev/null || echo "exit $rc"))"; fi
  return 0
}

# ---- task-spooler ----------------------------------------------------------------------------------
tsp_idle() {
  local deadline=$((SECONDS + 120))
  while tsp -l | awk 'NR > 1 && ($2 == "running" || $2 == "queued") { found = 1 } END { exit !found }'; do
    ((SECONDS < deadline)) || return 1
    sleep 0.005
  done
}

tsp_submit_stamp() { tsp sh -c "$stamp_body" "$1" >/dev/null; }

part_tsp() {
  say "== tsp: task-spooler, 4 slots, a private socket"
  ensure_packages tsp tsp task-spooler || return 0
  local dir=$work/tsp i t0 t1 last m
  mkdir -p "$dir/tmp"
  export TS_SOCKET=$dir/socket TMPDIR=$dir/tmp
  tsp_socket=$TS_SOCKET
  tsp -S 4 >/dev/null || { note "tsp: \`tsp -S 4\` failed: skipped"; return 0; }
  echo "task-spooler $(package_version task-spooler) (\`tsp\`, 4 slots, TS_SOCKET and TMPDIR private; each job keeps its output file, as by default)" >>"$work/peers.txt"

  measure tsp_submit "$RUNS" 0 tsp true
  m=$(median_of "$work/res/tsp_submit")
  row "tsp: tsp true (submit), server up, 4 slots" "$work/res/tsp_submit" ms "-" "-"
  chart "submit one job (whole command)" ms low tsp "$m"

  tsp_idle || die "tsp: jobs still running 120 s after the submit series"
  tsp -C
  idle_fn=tsp_idle
  start_latency start_tsp "$dir/stamp" tsp_submit_stamp
  row "tsp: submit -> start, idle queue: before \`tsp sh -c 'date +%s%N >F' F\` is invoked -> the job's first moment" \
    "$work/res/start_tsp" ms "-" "-"
  chart "submit -> start of one job, idle queue" ms low tsp "$(median_of "$work/res/start_tsp")"

  # throughput: one `tsp true` per job (tsp has no bulk submit), until the queue is empty
  tsp_idle || die "tsp: jobs still running"
  tsp -C
  t0=$(now_us)
  for ((i = 0; i < THROUGHPUT_JOBS; i++)); do last=$(tsp true) || die "tsp: submit $i failed"; done
  tsp -w "$last" >/dev/null 2>&1 || true
  tsp_idle || die "tsp: the throughput jobs did not finish"
  t1=$(now_us)
  local rate
  rate=$(awk -v n="$THROUGHPUT_JOBS" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / ((b - a) / 1e6) }')
  row1 "tsp: throughput, $THROUGHPUT_JOBS \`tsp true\` calls, 4 slots: first submit invoked -> queue empty" "$rate" "jobs/s" "-" "-"
  chart "throughput, $THROUGHPUT_JOBS 'true' jobs on 4 slots" "jobs/s" high tsp "$rate"

  # the list with the throughput's jobs ended in it, as `gq ps` with its 1,000-job history
  local listed
  listed=$(($(tsp -l | wc -l) - 1))
  measure tsp_list "$RUNS" 0 tsp -l
  row "tsp: tsp -l, server up, $listed ended jobs in its list" "$work/res/tsp_list" ms "-" "-"
  chart "list the queue (gq ps; gpuq status)" ms low tsp "$(median_of "$work/res/tsp_list")"

  tsp -C
  mkdir -p "$dir/burst"
  t0=$(now_us)
  for ((i = 1; i <= BURST; i++)); do tsp sh -c "$stamp_body" "$dir/burst/$i" >/dev/null || die "tsp: burst submit $i failed"; done
  for ((i = 1; i <= BURST; i++)); do wait_for_file "$dir/burst/$i" 60 || die "tsp: burst job $i did not start"; done
  burst_row tsp "$t0" "$(cat "$dir"/burst/* | sort -n | tail -1)" "\`tsp sh -c 'date +%s%N >F' F\`"
  tsp_idle || true
  tsp_stop
}

# tsp_stop: ends this run's tsp server (also from cleanup)
tsp_stop() {
  [[ -n ${tsp_socket-} ]] || return 0
  TS_SOCKET=$tsp_socket timeout 10 tsp -K >/dev/null 2>&1 || true
  tsp_socket=
  unset TS_SOCKET
}

# ---- gpuq (a Python script the user supplies) ----------------------------------------------------
part_gpuq() {
  if [[ -z ${BENCH_GPUQ-} ]]; then
    say "== gpuq: BENCH_GPUQ is not set (the path of a gpuq.py): skipped"
    if [[ $part == gpuq ]]; then note "gpuq: BENCH_GPUQ is not set: skipped"; fi
    return 0
  fi
  say "== gpuq: $BENCH_GPUQ add and status, its state in a private HOME"
  if [[ ! -f $BENCH_GPUQ ]]; then
    note "gpuq: BENCH_GPUQ=$BENCH_GPUQ is not a file: skipped"
    return 0
  fi
  local dir=$work/gpuq
  # a plain interpreter, not a version manager's shim (which can cost more than the script)
  local py=${BENCH_GPUQ_PYTHON:-}
  if [[ -z $py ]]; then
    if [[ -x /usr/bin/python3 ]]; then py=/usr/bin/python3; else py=$(command -v python3 || true); fi
  fi
  [[ -n $py ]] || { note "gpuq: no python3 found (BENCH_GPUQ_PYTHON names one): skipped"; return 0; }
  local -a cmd=("$py" "$BENCH_GPUQ")
  mkdir -p "$dir/home" "$dir/job"
  echo 'pass' >"$dir/job/job.py"
  # in a subshell: HOME and the directory are gpuq's, and a failure ends only this part
  if ! (
    export HOME=$dir/home GPUQ_NO_GPU_WAIT=1
    cd "$dir/job"
    timeout 60 "${cmd[@]}" add job.py >"$dir/first.log" 2>&1 || die "the first \`add\` failed"
    measure gpuq_add "$RUNS" 0 "${cmd[@]}" add job.py
    measure gpuq_status "$RUNS" 0 "${cmd[@]}" status
  ) 2>"$dir/err.log"; then
    note "gpuq: $(tail -1 "$dir/err.log") ($(tail -1 "$dir/first.log" 2>/dev/null)): skipped"
    return 0
  fi
  cat "$dir/err.log" >&2
  local pending=$((1 + WARMUP + RUNS))
  echo "gpuq: \`${cmd[*]}\` ($("$py" --version 2>&1); gpuq.py sha256 $(sha256sum "$BENCH_GPUQ" | cut -c1-12)), its state in a private HOME" >>"$work/peers.txt"
  row "gpuq: add job.py (queue a Python script)" "$work/res/gpuq_add" ms "-" "-"
  chart "submit one job (whole command)" ms low gpuq "$(median_of "$work/res/gpuq_add")"
  row "gpuq: status (up to $pending pending jobs listed)" "$work/res/gpuq_status" ms "-" "-"
  chart "list the queue (gq ps; gpuq status)" ms low gpuq "$(median_of "$work/res/gpuq_status")"
}
