#!/usr/bin/env bash
# Measures progress reading with many running jobs: ETA_JOBS (default 50) 0-GPU jobs run at once,
# each printing a tqdm bar to its log with printf every half second (CR-rewritten, as tqdm does,
# after about 120 KiB of earlier bar lines, so every reading is of a full 64 KiB tail), every
# fifth one with an --output_dir holding checkpoint-N/trainer_state.json and adding one every
# 20 s. Times `gq eta`, `gq eta --json` and `gq ps` (whole client process, ETA_RUNS runs each
# after 3 warm-up runs: median and p95), next to `gq daemon status` (the same client, no job read:
# what the client alone costs in the same run), and the daemon's share of `gq eta` and `gq ps`
# (connect .. exit frame from an already running JVM, bench/lib/RawRequests.java, 3 x ETA_RUNS
# requests), then the daemon's CPU over ETA_IDLE_SECONDS (default 60)
# with those jobs running and no client asking (utime+stime from /proc/PID/stat, % of one core;
# the daemon notes every job's progress unasked every GQ_PROGRESS_SAMPLE_MS, 15 s by default).
# Fake GPUs, temporary directories. Writes its table into docs/benchmarks.md between the
# eta:begin and eta:end markers.
# Usage: bench/eta.sh            (ETA_JOBS=50 ETA_RUNS=30 ETA_IDLE_SECONDS=60; ETA_KEEP=1 keeps the directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${ETA_JOBS:-50}
runs=${ETA_RUNS:-30}
idle=${ETA_IDLE_SECONDS:-60}
warmup=3
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-eta.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
echo "0 GPU-bench-0 81920 Fake GPU" >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
cleanup() {
  "$gq" cancel --group bench-eta -y >/dev/null 2>&1 || true
  # until the jobs' ends are recorded, their files are still being written under the data directory
  for ((i = 0; i < 120; i++)); do
    "$gq" ps --json 2>/dev/null | grep -q '"state": *"\(STARTING\|RUNNING\|CANCELLING\)"' || break
    sleep 0.5
  done
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -f $GQ_RUNTIME_DIR/gq.pid ]]; then kill "$(cat "$GQ_RUNTIME_DIR/gq.pid")" 2>/dev/null || true; fi
  if [[ -z ${ETA_KEEP-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

# the client gives up on a slow start after a while (a loaded machine); the daemon goes on starting
start_daemon() {
  "$gq" daemon start >/dev/null 2>&1 || true
  for ((i = 0; i < 600; i++)); do
    if "$gq" daemon status >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "the daemon did not start; see $GQ_DATA_DIR/gq-daemon.log" >&2
  exit 1
}

# A training loop's log: a tqdm bar rewritten with CR twice a second (bash builtins only: the
# wait is a read with a timeout, so the jobs themselves fork nothing while they run). With an
# --output_dir ($2) it saves a checkpoint every 40 steps, as a trainer does.
# The body is a script file, so that each job's command is as short as a training command's.
# shellcheck disable=SC2016 # expanded by the job's bash
printf '%s\n' 'total=100000; exec {w}<> <(:)
bar() { printf "\rtrain: %3d%%|#         | %d/%d [%02d:%02d<27:46:40,  1.00it/s, loss=0.42]" $(($1 * 100 / total)) "$1" "$total" $(($1 / 60 % 60)) $(($1 % 60)); }
for ((i = 1; i <= 1500; i++)); do bar "$i"; done
for ((i = 1501; i <= total; i++)); do
  bar "$i"
  if [[ $1 == --output_dir ]] && ((i % 40 == 0)); then
    mkdir -p "$2/checkpoint-$i" && printf "{\"global_step\": %d, \"max_steps\": %d}\n" "$i" "$total" >"$2/checkpoint-$i/trainer_state.json"
  fi
  read -t 0.5 -u "$w" || true
done' >"$tmp/train.sh"
start_daemon
for ((n = 1; n <= jobs; n++)); do
  if ((n % 5 == 0)); then
    out=$tmp/out-$n
    for step in 100 200 300; do
      mkdir -p "$out/checkpoint-$step"
      printf '{"global_step": %d, "max_steps": 100000}\n' "$step" >"$out/checkpoint-$step/trainer_state.json"
    done
    "$gq" run -g 0 --group bench-eta --name "train-$n" bash "$tmp/train.sh" --output_dir "$out" >/dev/null
  else
    "$gq" run -g 0 --group bench-eta --name "train-$n" bash "$tmp/train.sh" >/dev/null
  fi
done
for ((i = 0; i < 240; i++)); do
  running=$("$gq" ps --json | grep -c '"state": *"RUNNING"' || true)
  ((running < jobs)) || break
  sleep 0.5
done
((running == jobs)) || { echo "only $running of $jobs jobs are running" >&2; exit 1; }
sleep 2
known=$("$gq" eta --json | grep -c '"source": *"tqdm"' || true)

# time CMD...: ms of each of $runs runs after $warmup warm-up runs, one a line
time_runs() {
  local i t0 t1
  for ((i = 0; i < warmup + runs; i++)); do
    t0=$EPOCHREALTIME
    "$@" >/dev/null
    t1=$EPOCHREALTIME
    if ((i >= warmup)); then awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'; fi
  done
}
# stats: "median p95 min max" of the numbers on stdin (nearest-rank p95)
stats() {
  sort -g | awk '{ a[++n] = $1 } END {
    i = int(0.95 * n); if (i < 0.95 * n) i++
    printf "%.1f | %.1f | %.1f | %.1f", (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[i], a[1], a[n] }'
}
eta_all=$(time_runs "$gq" eta | stats)
eta_json=$(time_runs "$gq" eta --json | stats)
ps_all=$(time_runs "$gq" ps | stats)
status_all=$(time_runs "$gq" daemon status | stats)

# the daemon's share: requests sent from one JVM that is already running, as bin/gq sends them
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
mkdir -p "$tmp/raw"
"${java}c" -d "$tmp/raw" "$root/bench/lib/RawRequests.java"
protocol=$("$gq" daemon status 2>/dev/null | sed -n 's/.*, protocol \([0-9][0-9]*\)).*/\1/p')
raw() {
  local out=$tmp/raw/$1
  shift
  GQ_BENCH_PROTOCOL=${protocol:-2} "$java" -XX:+UseSerialGC -cp "$tmp/raw" RawRequests "$GQ_RUNTIME_DIR/gq.sock" \
    $((3 * runs + warmup)) "$out" "$tmp" "$@" >/dev/null
  tail -n $((3 * runs)) "$out" | stats
}
eta_daemon=$(raw eta eta)
ps_daemon=$(raw ps ps)

pid=$(cat "$GQ_RUNTIME_DIR/gq.pid")
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"; }
sleep 10
t0=$(ticks)
sleep "$idle"
t1=$(ticks)
hz=$(getconf CLK_TCK)
cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$idle" 'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')
cpu_verdict=$(awk -v v="$cpu" 'BEGIN { print (v <= 1) ? "met" : "NOT met" }')
still=$("$gq" ps --json | grep -c '"state": *"RUNNING"' || true)

table="_Generated by \`bench/eta.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)._

| Measure, $jobs running jobs | n | median | p95 | min | max | unit | budget | verdict |
|---|---:|---:|---:|---:|---:|---|---|---|
| \`gq eta\` (every running job), whole client process | $runs | $eta_all | ms | - | - |
| \`gq eta --json\`, whole client process | $runs | $eta_json | ms | - | - |
| \`gq ps\`, whole client process | $runs | $ps_all | ms | - | - |
| \`gq daemon status\` (reads no job: the client's own cost), whole client process | $runs | $status_all | ms | - | - |
| \`gq eta\` served by the daemon (connect .. exit frame, from a running JVM) | $((3 * runs)) | $eta_daemon | ms | - | - |
| \`gq ps\` served by the daemon (connect .. exit frame, from a running JVM) | $((3 * runs)) | $ps_daemon | ms | - | - |
| daemon CPU over $idle s, no client asking (% of one core) | 1 | $cpu | - | - | - | % | <= 1 | $cpu_verdict |

Jobs read from their tqdm bar at the start: $known of $jobs; running at the end: $still; $((t1 - t0)) CPU ticks of 1/$hz s in $idle s."
echo "$table"
doc=$root/docs/benchmarks.md
if grep -q '<!-- eta:begin -->' "$doc"; then
  awk -v t="$table" 'BEGIN{p=1} /<!-- eta:begin -->/{print; print t; p=0; next} /<!-- eta:end -->/{p=1} p' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
fi
