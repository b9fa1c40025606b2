#!/usr/bin/env bash
# Measures `gq report` and draws the README's picture of it. Fake GPUs, temporary directories.
#   1. The workload (4 fake GPUs): a learning-rate sweep (16 one-GPU jobs of 2 to 6 s), an eval
#      group (6 short jobs, one failing, one cancelled while it runs), two 2-GPU jobs, and an
#      outside process on GPU 3 for its first 12 s. When all have ended, `gq report --since START`
#      and `--plot docs/report.png` (a relative path, from the checkout) draw what they did.
#   2. A 100,000-job history (REPORT_HISTORY), made as bench/run.sh makes its big one: the queue
#      held, `gq submit -g 0 --batch` of 10,000 `true` lines at a time, each chunk cancelled at once.
#      Times `gq report --since 1d --json`, the table, and `--plot` (PNG) over it: whole client
#      process, REPORT_RUNS runs each after 2 warm-up runs. A plot keeps its rows and is charged for
#      them (1 KiB each) to the daemon's budget for large answers, a quarter of its heap: at the
#      default heap one of 100,000 jobs is refused (the line is kept), so the plot is timed with the
#      daemon restarted with GQ_DAEMON_HEAP=REPORT_PLOT_HEAP (default 512m), then restarted as before.
#   3. The daemon's start: REPORT_STARTS cold starts (`gq daemon start` .. `gq daemon status`
#      answers) with the 100,000-job history, and whether any charting class is loaded before a
#      plot is asked for (jcmd GC.class_histogram of the daemon, counting org.jfree classes).
# Writes its table into docs/benchmarks.md between the report:begin and report:end markers, and the
# picture to docs/report.png.
# Usage: bench/report.sh    (REPORT_HISTORY=100000 REPORT_RUNS=10 REPORT_STARTS=5 REPORT_PLOT_HEAP=512m;
#        REPORT_KEEP=1 keeps the directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
history=${REPORT_HISTORY:-100000}
runs=${REPORT_RUNS:-10}
starts=${REPORT_STARTS:-5}
plot_heap=${REPORT_PLOT_HEAP:-512m}
warmup=2
chunk=10000
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-report.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
for i in 0 1 2 3; do
  echo "$i GPU-bench-$i 81920 Fake GPU $i" >>"$GQ_FAKE_NVML/gpus"
  mkdir -p "$GQ_FAKE_NVML/procs/GPU-bench-$i"
done
gq=$root/bin/gq
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
cleanup() {
  "$gq" cancel --all -y >/dev/null 2>&1 || true
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -f $GQ_RUNTIME_DIR/gq.pid ]]; then kill "$(cat "$GQ_RUNTIME_DIR/gq.pid")" 2>/dev/null || true; fi
  if [[ -z ${REPORT_KEEP-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

start_daemon() {
  "$gq" daemon start >/dev/null 2>&1 || true
  for ((i = 0; i < 600; i++)); do
    if "$gq" daemon status >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "the daemon did not start; see $GQ_DATA_DIR/gq-daemon.log" >&2
  exit 1
}
live() { "$gq" ps --json | grep -c '"state": *"\(WAITING\|STARTING\|RUNNING\|CANCELLING\)"' || true; }
jfree_classes() { "$java/bin/jcmd" "$(cat "$GQ_RUNTIME_DIR/gq.pid")" GC.class_histogram 2>/dev/null | grep -c 'org\.jfree\.' || true; }

# ---- 1. the workload and its picture -------------------------------------------------------------
start_daemon
before_plot=$(jfree_classes)
since=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ghost=$GQ_FAKE_NVML/procs/GPU-bench-3/999999
echo ghost >"$ghost"
sleep 1
for n in $(seq 1 16); do
  "$gq" run -g 1 --group lr-sweep --name "lr-$n" sleep $((2 + (n * 7) % 5)) >/dev/null
done
for n in 1 2 3 4 5; do "$gq" run -g 1 --group eval --name "eval-$n" sleep 1 >/dev/null; done
"$gq" run -g 1 --group eval --name eval-broken bash -c 'sleep 1; exit 1' >/dev/null
slow=$("$gq" run -g 1 --group eval --name eval-slow sleep 60 | grep -o '[0-9][0-9]*' | head -1)
"$gq" run -g 2 --group big-model --name big-1 sleep 8 >/dev/null
"$gq" run -g 2 --group big-model --name big-2 sleep 8 >/dev/null
sleep 11
rm -f "$ghost"
until "$gq" show "$slow" | grep -q 'RUNNING'; do sleep 0.5; done
sleep 3
"$gq" cancel "$slow" >/dev/null
for ((i = 0; i < 600; i++)); do (($(live) == 0)) && break; sleep 0.5; done
sleep 4 # the GPU record is written every 30 polls (30 s at the default 1 s poll; at most 60 s)
"$gq" daemon stop >/dev/null 2>&1
start_daemon
(cd "$root" && "$gq" report --since "$since" --plot docs/report.png >"$tmp/workload.txt" 2>&1)
cat "$tmp/workload.txt"
after_plot=$(jfree_classes)

# ---- 2. the 100,000-job history -------------------------------------------------------------------
"$gq" hold --all >/dev/null
made=0
t0=$EPOCHREALTIME
while ((made < history)); do
  n=$((history - made < chunk ? history - made : chunk))
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$tmp/batch"
  "$gq" submit -g 0 --group bench-history --batch "$tmp/batch" >/dev/null
  "$gq" cancel --group bench-history --waiting -y >/dev/null
  made=$((made + n))
done
"$gq" release --all >/dev/null
# a report answers once the history has every event: the first one waits for it to catch up
"$gq" report --since 1d --json >/dev/null
made_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

time_runs() {
  local i t0 t1
  for ((i = 0; i < warmup + runs; i++)); do
    t0=$EPOCHREALTIME
    if ! "$@" >/dev/null 2>"$tmp/timed.err"; then
      echo "bench: '$*' failed: $(head -1 "$tmp/timed.err")" >&2
      exit 1
    fi
    t1=$EPOCHREALTIME
    if ((i >= warmup)); then awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'; fi
  done
}
stats() {
  sort -g | awk '{ a[++n] = $1 } END {
    i = int(0.95 * n); if (i < 0.95 * n) i++
    printf "%.1f | %.1f | %.1f | %.1f", (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[i], a[1], a[n] }'
}
median() { awk -F' [|] ' '{ print $1 }' <<<"$1"; }
verdict() { awk -v v="$(median "$1")" -v l="$2" 'BEGIN { print (v + 0 <= l + 0) ? "met" : "NOT met" }'; }
total_jobs=$("$gq" report --since 1d --json | grep -o '"CANCELLED" *: *[0-9]*' | tail -1 | grep -o '[0-9]*$' || echo "?")
json_big=$(time_runs "$gq" report --since 1d --json | stats)
text_big=$(time_runs "$gq" report --since 1d | stats)
status_big=$(time_runs "$gq" daemon status | stats)
plot_refused=$("$gq" report --since 1d --plot "$tmp/big.png" 2>&1 >/dev/null | head -1 || true)
"$gq" daemon stop >/dev/null 2>&1
GQ_DAEMON_HEAP=$plot_heap start_daemon
plot_big=$(time_runs "$gq" report --since 1d --plot "$tmp/big.png" | stats)
"$gq" daemon stop >/dev/null 2>&1
start_daemon
png_kib=$(( $(stat -c %s "$tmp/big.png") / 1024 ))

# ---- 3. the daemon's start -------------------------------------------------------------------------
: >"$tmp/ready"
for ((s = 0; s < starts; s++)); do
  "$gq" daemon stop >/dev/null 2>&1
  while [[ -S $GQ_RUNTIME_DIR/gq.sock ]] && "$gq" daemon status >/dev/null 2>&1; do sleep 0.1; done
  t0=$EPOCHREALTIME
  start_daemon
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }' >>"$tmp/ready"
done
ready=$(stats <"$tmp/ready")
at_start=$(jfree_classes)

table="_Generated by \`bench/report.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)._

| Measure | n | median | p95 | min | max | unit | budget | verdict |
|---|---:|---:|---:|---:|---:|---|---|---|
| \`gq report --since 1d --json\`, $history jobs in the period, whole client process | $runs | $json_big | ms | median <= 1500 | $(verdict "$json_big" 1500) |
| \`gq report --since 1d\` (the tables), same history | $runs | $text_big | ms | median <= 1500 | $(verdict "$text_big" 1500) |
| \`gq report --since 1d --plot FILE.png\`, same history (${png_kib} KiB), daemon heap $plot_heap | $runs | $plot_big | ms | median <= 3000 | $(verdict "$plot_big" 3000) |
| \`gq daemon status\` (reads no job: the client's own cost), same daemon | $runs | $status_big | ms | - | - |
| ready after a cold start with that history (\`gq daemon start\` .. \`gq daemon status\` answers) | $starts | $ready | ms | median <= 3000 | $(verdict "$ready" 3000) |

The history: $made jobs made in $made_s s (held queue, \`gq submit -g 0 --batch\` of $chunk lines, each chunk cancelled before it ran; the report counted ${total_jobs} CANCELLED in the period). Charting classes loaded in the daemon: $before_plot after its start, $after_plot after the first plot, $at_start after the last cold start above. The plot at the default heap: ${plot_refused:-drawn}."
echo "$table"
doc=$root/docs/benchmarks.md
if grep -q '<!-- report:begin -->' "$doc"; then
  awk -v t="$table" 'BEGIN{p=1} /<!-- report:begin -->/{print; print t; p=0; next} /<!-- report:end -->/{p=1} p' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
fi
