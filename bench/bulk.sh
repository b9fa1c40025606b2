#!/usr/bin/env bash
# Measures one long batch and the restart after it: BULK_JOBS waiting jobs (default 100,000, one
# GPU each) queued by ONE `gq submit --batch` into a held queue (gq hold --all), fake GPUs and
# temporary directories; the daemon's CPU during the batch (utime+stime from /proc/PID/stat, and
# each of its threads' from jcmd Thread.print), then BULK_RESTARTS restarts (default 3): from
# `gq daemon start` until `gq daemon status` answers (polled every 20 ms) and the daemon's CPU by
# then; the RSS right after the batch and after BULK_SETTLE seconds quiet (default 40), the same
# after the last restart, and the CPU an idle daemon with that queue uses over 20 s. Wall times
# depend on what else runs: each line says the load average. The daemon uses its AOT cache when
# there is one (bin/gq-daemon --train; BULK_NO_AOT=1 moves it aside meanwhile). Writes nothing into
# the repository. Usage: bench/bulk.sh    (BULK_JOBS, BULK_RESTARTS, BULK_SETTLE, BULK_ENV_BYTES, BULK_NO_AOT)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${BULK_JOBS:-100000}
restarts=${BULK_RESTARTS:-3}
settle=${BULK_SETTLE:-40}
env_bytes=${BULK_ENV_BYTES:-0}
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-bulk.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
echo "0 GPU-bench-0 81920 Fake GPU" >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
# the daemon's own JDK's tools (jcmd of another JDK cannot attach)
. "$root/bin/gq-jdk.sh"
gq_find_java
jdk=${java%/bin/java}
aot=$root/actors/target/gq-daemon.aot
cleanup() {
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -n ${BULK_NO_AOT-} && -f $tmp/gq-daemon.aot ]]; then mv "$tmp/gq-daemon.aot" "$aot"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
if [[ -n ${BULK_NO_AOT-} && -f $aot ]]; then mv "$aot" "$tmp/gq-daemon.aot"; fi
# an environment of about env_bytes bytes more, in variables of about 75 bytes each
for ((i = 0; i * 75 < env_bytes; i++)); do export "BENCH_FILLER_$i=$(printf '%060d' "$i")"; done

pid() { cat "$GQ_RUNTIME_DIR/gq.pid"; }
cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$(pid)/stat"; }
rss() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$(pid)/status"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
# each thread's CPU in ms, by name without its number: "name|ms" a line
threads() {
  "$jdk/bin/jcmd" "$(pid)" Thread.print 2>/dev/null | sed -nE 's/^"([^"]*)".* cpu=([0-9.]+)ms.*/\1|\2/p' \
    | sed -E 's/[-#]?[0-9]+\|/|/' | awk -F'|' '{ a[$1] += $2 } END { for (k in a) print k "|" a[k] }'
}
start_daemon() {
  "$gq" daemon start >/dev/null 2>&1 || true
  for ((i = 0; i < 3000; i++)); do
    if "$gq" daemon status >/dev/null 2>&1; then return 0; fi
    sleep 0.02
  done
  echo "the daemon did not start; see $GQ_DATA_DIR/gq-daemon.log" >&2
  exit 1
}
stop_daemon() {
  local p
  p=$(pid)
  "$gq" daemon stop >/dev/null
  while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
}
idle_cpu() {
  local c0
  c0=$(cpu)
  sleep 20
  awk -v a="$c0" -v b="$(cpu)" 'BEGIN { printf "%.1f %% of a core", (b - a) / 20 * 100 }'
}

start_daemon
"$gq" hold --all >/dev/null
for ((i = 1; i <= jobs; i++)); do echo "python train.py --cell $i --lr 3e-4"; done >"$tmp/batch.txt"
threads >"$tmp/threads.0"
c0=$(cpu) s=$EPOCHREALTIME l0=$(load)
"$gq" submit --batch "$tmp/batch.txt" -g 1 >/dev/null 2>"$tmp/batch.err" || { cat "$tmp/batch.err" >&2; exit 1; }
e=$EPOCHREALTIME
threads >"$tmp/threads.1"
echo "one batch of $jobs lines: $(ms "$s" "$e") ms, the daemon's CPU $(awk -v a="$c0" -v b="$(cpu)" 'BEGIN { printf "%.2f", b - a }') s (load $l0 before, $(load) after)"
echo "  its threads' CPU, s: $(awk -F'|' 'NR == FNR { a[$1] = $2; next } { d = ($2 - a[$1]) / 1000; if (d >= 0.05) printf "%s %.2f; ", $1, d }' "$tmp/threads.0" "$tmp/threads.1")"
echo "  RSS $(rss) MiB right after it; the daemon runs with $(tr '\0' '\n' <"/proc/$(pid)/cmdline" | grep '^-Xmx' || echo '?')"
sleep "$settle"
echo "  RSS $(rss) MiB after ${settle} s quiet; idle CPU with $jobs waiting: $(idle_cpu)"
stop_daemon
for ((r = 1; r <= restarts; r++)); do
  l0=$(load) s=$EPOCHREALTIME
  start_daemon
  e=$EPOCHREALTIME
  echo "restart $r: ready in $(ms "$s" "$e") ms, the daemon's CPU by then $(cpu) s, RSS $(rss) MiB (load $l0; $(tr '\0' '\n' <"/proc/$(pid)/cmdline" | grep '^-Xmx'))"
  if ((r < restarts)); then stop_daemon; fi
done
sleep "$settle"
echo "  RSS $(rss) MiB after ${settle} s quiet; idle CPU: $(idle_cpu); $("$gq" daemon status | grep -o '[0-9][0-9]* waiting')"
echo "$(nproc) CPUs, environment $(env | wc -c) bytes, AOT cache $([[ -f $aot ]] && echo used || echo none), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
