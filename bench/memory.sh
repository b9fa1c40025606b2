#!/usr/bin/env bash
# Measures what a large queue costs the daemon: MEM_JOBS waiting jobs (default 100,000) queued with
# `gq submit --batch` into a held queue (gq hold --all), MEM_BATCH lines per batch (default 20,000), every job with
# an environment of about MEM_ENV_BYTES bytes (default 3,000: a typical login shell's), on fake GPUs
# and temporary directories. Reports the daemon's RSS (VmRSS, and VmHWM: its peak) and the heap in
# use after a full GC (jcmd) and the RSS after it, after the submits and again after a restart (replay of the journal and
# snapshot), and the time each batch took. Writes nothing into the repository.
# Usage: bench/memory.sh          (MEM_JOBS, MEM_BATCH, MEM_ENV_BYTES; MEM_KEEP=1 keeps the directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${MEM_JOBS:-100000}
batch=${MEM_BATCH:-20000}
env_bytes=${MEM_ENV_BYTES:-3000}
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-memory.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
echo "0 GPU-bench-0 81920 Fake GPU" >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
cleanup() {
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -f $GQ_RUNTIME_DIR/gq.pid ]]; then kill "$(cat "$GQ_RUNTIME_DIR/gq.pid")" 2>/dev/null || true; fi
  if [[ -z ${MEM_KEEP-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

# an environment of about env_bytes bytes, in variables of about 75 bytes each
for ((i = 0; i * 75 < env_bytes; i++)); do
  export "BENCH_FILLER_$i=$(printf '%060d' "$i")"
done

pid() { cat "$GQ_RUNTIME_DIR/gq.pid"; }
mib() { awk -v k="$1" "/^$1:/ {printf \"%.1f\", \$2 / 1024}" "/proc/$(pid)/status"; }
heap_used() {
  jcmd "$(pid)" GC.run >/dev/null 2>&1 || true
  jcmd "$(pid)" GC.heap_info 2>/dev/null | awk '/^ *(DefNew|Tenured|def new generation|tenured generation)/ {
      for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?/, "", v); s += v } }
    END { if (s) printf "%.1f", s / 1024; else print "-" }'
}
report() {
  local label=$1 rss hwm heap
  rss=$(mib VmRSS)
  hwm=$(mib VmHWM)
  heap=$(heap_used)
  printf '| %s | %s | %s | %s | %s |\n' "$label" "$rss" "$hwm" "$heap" "$(mib VmRSS)"
}

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
start_daemon
"$gq" hold --all >/dev/null
echo "| after | RSS MiB | peak RSS MiB | heap used after a full GC, MiB | RSS after that GC, MiB |"
echo "|---|---:|---:|---:|---:|"
report "start (empty, held)"
submitted=0 n=0 times=()
while ((submitted < jobs)); do
  size=$((jobs - submitted < batch ? jobs - submitted : batch))
  for ((i = 1; i <= size; i++)); do echo "python train.py --cell $((submitted + i)) --lr 3e-4"; done >"$tmp/batch.txt"
  start=$EPOCHREALTIME
  out=$("$gq" submit --batch "$tmp/batch.txt" -g 1 2>&1) || { echo "batch submit failed: $out" >&2; exit 1; }
  end=$EPOCHREALTIME
  times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", (b - a) * 1000 }')")
  submitted=$((submitted + size))
  n=$((n + 1))
done
report "$submitted waiting jobs"
old=$(pid)
"$gq" daemon stop >/dev/null
while kill -0 "$old" 2>/dev/null; do sleep 0.2; done
start=$EPOCHREALTIME
start_daemon
end=$EPOCHREALTIME
report "restart with $submitted waiting jobs"
waiting=$("$gq" daemon status | grep -io '[0-9]* waiting' || true)
echo
echo "$n batches of up to $batch lines, ms each: ${times[*]}; restart to ready: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", (b - a) * 1000 }') ms;" \
  "daemon status after restart: ${waiting:-?}; environment $(env | wc -c) bytes;" \
  "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
