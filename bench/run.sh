#!/usr/bin/env bash
# bench/run.sh: measures gq against the performance budgets of the design brief, and against its
# peers (task-spooler, a single-node Slurm, gpuq) in the same run, on this machine.
#
#   bench/run.sh [PART|all|peers|smoke]      (default: all)
#
#   ps          `gq ps`, `gq gpu` and `gq show` wall time with the daemon up and 1,000 finished jobs
#               in history, next to the client without a daemon and the daemon's own share; `gq ps`
#               piped with 5,000 jobs waiting (BENCH_WAITING_JOBS)
#   submit      `gq -g 0 true` and `gq -g 1 true` wall time (4 fake GPUs); the daemon's time per
#               submit request; 1,000 `gq -g 1 --key K true` calls from a shell loop; 1,000 jobs in
#               one `gq submit --batch` call
#   start       submit -> start of one job on an idle daemon (the job stamps its first moment)
#   logs        `gq logs -f` delay: a line written by a job -> the line read from the command
#   throughput  1,000 `true` jobs (-g 1) through 4 fake GPUs, jobs/s; a burst of 20 jobs
#   handoff     a job's exit to the next waiting job's start on the freed GPU (1 fake GPU)
#   ready       `gq daemon start` until `gq daemon status` answers: empty history, 1,000 jobs,
#               100,000 jobs
#   idle        the daemon's RSS after 10 s idle and its CPU use over the next 60 s
#   clients     20 clients at once, 250 keyed submits each (every key sent by two of them), the
#               queue held: time per submit (p50, p99) and duplicates (a key given two jobs)
#   mcp         `gq mcp`'s first answer, when bench/lib/parts-mcp.sh (which defines part_mcp) is there
#   tsp         task-spooler: submit, submit -> start, throughput, `tsp -l` with 1,000 ended jobs,
#               burst
#   slurm       single-node Slurm on loopback: sbatch submit, submit -> start, burst; and gq
#               sending jobs to it (--to slurm) next to sbatch alone: one job's submit, a 1,000-cell
#               sweep in one call (gq submit --batch; sbatch --array) and in 1,000 calls
#   gpuq        gpuq `add` and `status` (only with BENCH_GPUQ=/path/to/gpuq.py)
#   peers       tsp, slurm and gpuq
#   all         every part, then rewrites the generated part of docs/benchmarks.md and
#               docs/benchmarks.svg
#   smoke       every gq part with tiny counts in about a minute, no peers, writes nothing;
#               exits non-zero when a part breaks (for CI)
#
# Every part, gq's and the peers', starts the same way: the peers with none of this run's gq
# daemons up; with BENCH_QUIET_LOAD or BENCH_QUIET_CPU, after the wait for a quiet machine; and
# the results give the 1-minute load average at each part's start and end, the machine's CPU use
# over it, how much of it some task waited for a CPU or the disk, and what else was busy just
# before it.
#
# Every gq command is timed as users run it: the native client (client/target/gq, the binary
# install.sh installs as PREFIX/bin/gq), from a copy of the build. Needs the build (it builds
# nothing) and uses fake GPUs in its own temporary data and runtime
# directories; it stops every daemon and peer server it started when it ends, however it ends.
# Peers missing from this machine are installed from Debian packages with apt-get (root only; a
# peer that cannot be installed or started is noted and skipped). Uses hyperfine when installed,
# else a timing loop in bash. Knobs (environment): BENCH_RUNS (30), BENCH_HISTORY (1000),
# BENCH_BIG_HISTORY (100000), BENCH_HANDOFF_JOBS (30), BENCH_READY_STARTS (5),
# BENCH_IDLE_SETTLE (10), BENCH_IDLE_SECONDS (60), BENCH_THROUGHPUT_JOBS (1000),
# BENCH_START_RUNS (10), BENCH_START_GAP (1: seconds idle before each submit -> start run),
# BENCH_LOG_LINES (50), BENCH_BURST (20), BENCH_KEY_CALLS (1000), BENCH_CLIENTS (20),
# BENCH_CLIENT_CALLS (250), BENCH_SWEEP_CELLS (1000: the
# Slurm sweeps), BENCH_PEERS (tsp,slurm,gpuq: the peers `all` runs; "none" for none), BENCH_GPUQ
# (path of gpuq.py; BENCH_GPUQ_PYTHON: the interpreter, default
# /usr/bin/python3), BENCH_NO_INSTALL=1 (never apt-get),
# BENCH_NO_HYPERFINE=1 (use the bash loop), BENCH_NO_DAEMON_AOT=1 (measure the daemon without
# the AOT cache that install.sh makes; the smoke run never makes it), BENCH_KEEP=1 (keep the
# temporary directory),
# BENCH_DOC=path (where `all` writes; default docs/benchmarks.md; the picture goes next to it),
# BENCH_QUIET_LOAD=L and BENCH_QUIET_CPU=P (before every part, gq's and the peers', wait up to
# BENCH_QUIET_WAIT s (600) for a 1-minute load average below L and the CPUs less than P % busy over
# 5 s: on a shared machine other work inflates every figure).
set -euo pipefail

# Run with a small, known environment: the gq client sends its whole environment with every
# request and the daemon stores it with each job, so the caller's variables would change the
# figures (and secret-looking ones make every submit print a warning).
if [[ -z ${GQ_BENCH_CLEAN_ENV-} ]]; then
  keep=(GQ_BENCH_CLEAN_ENV=1 "HOME=$HOME" "PATH=$PATH" LANG=C.UTF-8 "TERM=${TERM:-dumb}")
  for name in JAVA_HOME TMPDIR USER LOGNAME $(compgen -e | grep '^BENCH_' || true); do
    if [[ -n ${!name-} ]]; then keep+=("$name=${!name}"); fi
  done
  exec env -i "${keep[@]}" bash "${BASH_SOURCE[0]}" "$@"
fi

gq_parts=(ps submit start logs throughput handoff clients idle ready)   # the order of the smoke run
peer_parts=(tsp slurm gpuq)
usage="usage: bench/run.sh [ps|submit|start|logs|throughput|handoff|clients|mcp|ready|idle|tsp|slurm|gpuq|peers|all|smoke]"
part=${1:-all}
case $part in
  ps | submit | start | logs | throughput | handoff | clients | mcp | ready | idle | tsp | slurm | gpuq | peers | all | smoke) ;;
  -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
(($# <= 1)) || { echo "$usage" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
RUNS=${BENCH_RUNS:-30}
HISTORY=${BENCH_HISTORY:-1000}
BIG_HISTORY=${BENCH_BIG_HISTORY:-100000}
BIG_CHUNK=10000
HANDOFF_JOBS=${BENCH_HANDOFF_JOBS:-30}
READY_STARTS=${BENCH_READY_STARTS:-5}
READY_WARM=1
IDLE_SETTLE=${BENCH_IDLE_SETTLE:-10}
IDLE_SECONDS=${BENCH_IDLE_SECONDS:-60}
THROUGHPUT_JOBS=${BENCH_THROUGHPUT_JOBS:-1000}
START_RUNS=${BENCH_START_RUNS:-10}
START_GAP=${BENCH_START_GAP:-1}
LOG_LINES=${BENCH_LOG_LINES:-50}
BURST=${BENCH_BURST:-20}
KEY_CALLS=${BENCH_KEY_CALLS:-1000}
SWEEP_CELLS=${BENCH_SWEEP_CELLS:-1000}
CLIENTS=${BENCH_CLIENTS:-20}
CLIENT_CALLS=${BENCH_CLIENT_CALLS:-250}
BULK_LINES=1000
BULK_RUNS=5
DOC=${BENCH_DOC:-$root/docs/benchmarks.md}
WARMUP=3
if [[ -n ${BENCH_QUIET_CPU-} && ! $BENCH_QUIET_CPU =~ ^[0-9]+$ ]]; then
  echo "bench: BENCH_QUIET_CPU must be a whole percentage, not '$BENCH_QUIET_CPU'" >&2
  exit 2
fi
for knob in RUNS HISTORY BIG_HISTORY HANDOFF_JOBS READY_STARTS IDLE_SETTLE IDLE_SECONDS THROUGHPUT_JOBS START_RUNS LOG_LINES BURST KEY_CALLS SWEEP_CELLS CLIENTS CLIENT_CALLS; do
  [[ ${!knob} =~ ^[0-9]+$ && ${!knob} -gt 0 ]] || { echo "bench: BENCH_$knob must be a whole number above 0, not '${!knob}'" >&2; exit 2; }
done
[[ $START_GAP =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench: BENCH_START_GAP must be a number of seconds, not '$START_GAP'" >&2; exit 2; }
shared_instance=0
if [[ $part == smoke ]]; then
  # tiny counts, one shared daemon: checks that every part still works, not how fast
  RUNS=2 WARMUP=0 HISTORY=20 BIG_HISTORY=200 BIG_CHUNK=100 HANDOFF_JOBS=3 READY_STARTS=1 READY_WARM=0
  IDLE_SETTLE=0.5 IDLE_SECONDS=1 THROUGHPUT_JOBS=20 START_RUNS=2 START_GAP=0 LOG_LINES=3 BURST=3
  BULK_LINES=50 BULK_RUNS=1 KEY_CALLS=10 CLIENTS=4 CLIENT_CALLS=5 shared_instance=1
fi
gq=$root/bin/gq   # until the build is copied (snapshot_build)

# shellcheck source=bench/lib/common.sh
. "$here/lib/common.sh"
# shellcheck source=bench/lib/daemon.sh
. "$here/lib/daemon.sh"
# shellcheck source=bench/lib/parts-cli.sh
. "$here/lib/parts-cli.sh"
# shellcheck source=bench/lib/parts-jobs.sh
. "$here/lib/parts-jobs.sh"
# shellcheck source=bench/lib/parts-daemon.sh
. "$here/lib/parts-daemon.sh"
# shellcheck source=bench/lib/parts-clients.sh
. "$here/lib/parts-clients.sh"
# `gq mcp`'s first answer: a part of its own, in its own file (part_mcp), run by `all` when there
if [[ -f $here/lib/parts-mcp.sh ]]; then
  # shellcheck source=/dev/null
  . "$here/lib/parts-mcp.sh"
fi
# shellcheck source=bench/lib/peers.sh
. "$here/lib/peers.sh"
# shellcheck source=bench/lib/slurm.sh
. "$here/lib/slurm.sh"
# shellcheck source=bench/lib/slurm-gq.sh
. "$here/lib/slurm-gq.sh"
# shellcheck source=bench/lib/report.sh
. "$here/lib/report.sh"
# shellcheck source=bench/lib/svg.sh
. "$here/lib/svg.sh"

# ---- the build must exist ----------------------------------------------------------------------
build_cmd="cd $root && export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow && ./mvnw -q -B package -DskipTests"
for f in client/target/gq actors/target/gq-daemon.jar host/target/gq-shim; do
  [[ -f $root/$f ]] || die "$f is missing: build gq first:
  $build_cmd"
done
compgen -G "$root/actors/target/lib/*.jar" >/dev/null || die "actors/target/lib is empty: build gq first:
  $build_cmd"

# the Java that bin/gq and bin/gq-daemon pick
# shellcheck source-path=SCRIPTDIR/.. source=bin/gq-jdk.sh
. "$root/bin/gq-jdk.sh"
gq_find_java
java_home=${java%/bin/java}
jdk_desc=$("$java" -version 2>&1 | sed -n 2p)
[[ -n $jdk_desc ]] || jdk_desc=$("$java" -version 2>&1 | head -1)
have_javac=0
if [[ -x $java_home/bin/javac ]]; then have_javac=1; fi

use_hyperfine=0
if [[ -z ${BENCH_NO_HYPERFINE-} ]] && command -v hyperfine >/dev/null; then use_hyperfine=1; fi
if ((use_hyperfine)); then
  timer="hyperfine $(hyperfine --version | awk '{print $2}') (-N, no shell; $WARMUP warm-up runs)"
else
  timer="a bash loop timing each run with EPOCHREALTIME ($WARMUP warm-up runs; install hyperfine for the usual tool)"
fi

# ---- temporary directories, cleanup ------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/gq-bench.XXXXXX")
mkdir -p "$work/res"
rows=$work/rows.tsv
chart_tsv=$work/chart.tsv
notes=$work/notes.txt
: >"$rows"
: >"$chart_tsv"
: >"$notes"
started_pids=()
started_pid=
# every process this run starts carries this variable, so that cleanup can find leftovers
export GQ_BENCH_TAG=$work

# Stops everything this run started: `gq daemon stop` per instance, then each daemon by PID; the
# peers' servers by PID (tsp with `tsp -K`); then any process (a job left running) that carries
# this run's tag in its environment.
cleanup() {
  local rc=$? inst pid p deadline
  trap - EXIT INT TERM
  if [[ -n ${peer_child-} ]]; then
    kill -TERM "$peer_child" 2>/dev/null || true
    wait "$peer_child" 2>/dev/null || true
  fi
  for inst in "$work"/inst/*/; do
    [[ -d $inst ]] || continue
    GQ_DATA_DIR=${inst}data GQ_RUNTIME_DIR=${inst}run timeout 20 "$gq" daemon stop >/dev/null 2>&1 || true
  done
  for pid in "${started_pids[@]}"; do
    deadline=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "bench: daemon $pid still runs after 'gq daemon stop'; sending SIGTERM"
      kill -TERM "$pid" 2>/dev/null || true
      sleep 2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  if [[ -S $work/tsp/socket ]]; then TS_SOCKET=$work/tsp/socket timeout 10 tsp -K >/dev/null 2>&1 || true; fi
  if [[ -s $work/peer.pids ]]; then
    while read -r pid; do
      kill -0 "$pid" 2>/dev/null || continue
      say "bench: stopping peer server $pid"
      kill -TERM "$pid" 2>/dev/null || true
      sleep 1
      kill -KILL "$pid" 2>/dev/null || true
    done <"$work/peer.pids"
  fi
  if [[ -s $work/added-policy ]]; then rm -f "$(<"$work/added-policy")"; fi
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
    if grep -qzxF "GQ_BENCH_TAG=$work" "$p/environ" 2>/dev/null; then
      say "bench: ending leftover process $pid ($(tr '\0' ' ' <"$p/cmdline" 2>/dev/null | cut -c1-80))"
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  if [[ -n ${BENCH_KEEP-} ]]; then say "bench: kept $work"; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- main -----------------------------------------------------------------------------------------

# quiet_wait NAME: before part NAME, waits up to BENCH_QUIET_WAIT s (600) for a quiet machine:
# a 1-minute load average below BENCH_QUIET_LOAD, and (BENCH_QUIET_CPU=P) the machine's CPU less
# than P % busy over 5 s (the load average also counts processes waiting for the disk, and misses
# one process that computes without pause); notes when quiet does not come
quiet_wait() {
  [[ -n ${BENCH_QUIET_LOAD-}${BENCH_QUIET_CPU-} ]] || return 0
  local deadline=$((SECONDS + ${BENCH_QUIET_WAIT:-600})) a busy
  while :; do
    busy=
    if [[ -n ${BENCH_QUIET_CPU-} ]]; then
      a=$(cpu_ticks)
      sleep 5
      busy=$(cpu_share "$a" "$(cpu_ticks)" | cut -d' ' -f1)
    fi
    if { [[ -z ${BENCH_QUIET_LOAD-} ]] || awk -v l="$BENCH_QUIET_LOAD" '{ exit !($1 < l) }' /proc/loadavg; } &&
      { [[ -z $busy ]] || ((busy < BENCH_QUIET_CPU)); }; then
      return 0
    fi
    if ((SECONDS >= deadline)); then
      note "$1: the machine was not quiet (load average $(load1)${busy:+, CPU $busy % busy}) for ${BENCH_QUIET_WAIT:-600} s; measured anyway"
      return 0
    fi
    say "  $1: waiting for a quiet machine (load average $(load1)${busy:+, CPU $busy % busy}) ..."
    sleep 10
  done
}

# before_part NAME: every part, gq's and the peers', starts the same way: a peer's with none of
# this run's gq daemons up (the gq parts manage their own, and share the history's), the wait for
# a quiet machine (BENCH_QUIET_LOAD, BENCH_QUIET_CPU), then a reading of the load, of the
# machine's CPU and its waits, and of whatever else is busy (a 1 s sample), kept for after_part
before_part() {
  local t=$SECONDS
  if [[ " ${peer_parts[*]} " == *" $1 "* ]]; then stop_run_daemons; fi
  quiet_wait "$1"
  part_waited=$((SECONDS - t))
  part_busy=$(busy_now 1)
  part_load0=$(load1) part_t0=$SECONDS part_cpu0=$(cpu_ticks) part_psi0=$(psi_totals) part_us0=$(now_us)
}

# after_part NAME: one line of conditions.tsv: part, 1-minute load at its start and end, seconds,
# the machine's CPU busy and steal % over the part, seconds waited for quiet, busy at its start,
# and the % of the part's time some task waited for a CPU and for the disk
after_part() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$part_load0" "$(load1)" "$((SECONDS - part_t0))" \
    "$(cpu_share "$part_cpu0" "$(cpu_ticks)")" "$part_waited" "$part_busy" \
    "$(psi_share "$part_psi0" "$(psi_totals)" "$part_us0" "$(now_us)")" >>"$work/conditions.tsv"
}

# gq_part NAME: runs part NAME; the smoke run fails when a part gives no figure
gq_part() {
  local before after
  before_part "$1"
  before=$(wc -l <"$rows")
  "part_$1"
  after=$(wc -l <"$rows")
  ((after > before)) || die "part $1 produced no figure"
  after_part "$1"
  say "  ($1: $((SECONDS - part_t0)) s, load $part_load0 -> $(load1))"
}

# peer_part NAME: a peer's part (run_peer: a failure skips it), under the same conditions; its
# conditions are kept when it gave a figure
peer_part() {
  local before
  before_part "$1"
  before=$(wc -l <"$rows")
  run_peer "part_$1"
  if (($(wc -l <"$rows") > before)); then after_part "$1"; fi
  say "  ($1: $((SECONDS - part_t0)) s, load $part_load0 -> $(load1))"
}

peers_wanted() {
  local p
  for p in "${peer_parts[@]}"; do
    if [[ ${BENCH_PEERS:-tsp,slurm,gpuq} =~ (^|,)$p(,|$) ]]; then peer_part "$p"; fi
  done
}

snapshot_build
# the command as installed: the native client itself (it finds bin/gq-daemon beside the copy)
gq=$snapshot/client/target/gq
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
run_date=$(date -u '+%Y-%m-%d %H:%M UTC')
run_start=$SECONDS
say "gq benchmark: $part on $(machine_desc)"
say "JDK: $jdk_desc; timer: $timer"
say "temporary directory: $work"
if ((!have_javac)); then note "no javac next to $java: the history is made with the real client (slower) and the daemon-side rows are left out"; fi

case $part in
  smoke)
    for p in "${gq_parts[@]}" mcp; do
      if declare -F "part_$p" >/dev/null; then gq_part "$p"; fi
    done
    ;;
  all)
    for p in ps submit start logs idle throughput handoff clients mcp ready; do
      if declare -F "part_$p" >/dev/null; then gq_part "$p"; fi
    done
    peers_wanted
    ;;
  peers) peers_wanted ;;
  tsp | slurm | gpuq) peer_part "$part" ;;
  mcp)
    declare -F part_mcp >/dev/null || die "this checkout has no mcp part (bench/lib/parts-mcp.sh)"
    gq_part mcp
    ;;
  *) gq_part "$part" ;;
esac
breakdown
report
if [[ $part == all ]]; then
  svg=${DOC%.md}.svg
  svg_link=${svg##*/}
  write_svg "$svg" "gq benchmarks, $run_date" "$(machine_desc); load average $load_start at the start. Medians; each panel on its own log scale; dashed: the budget."
  say "drew ${svg#"$root"/}"
  write_doc
fi
if [[ $part == smoke ]]; then say "smoke: every gq part ran, in $((SECONDS - run_start)) s"; fi
