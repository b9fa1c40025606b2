#!/usr/bin/env bash
# Times gq ps at PS_JOBS waiting jobs (default 100,000; one `gq submit --batch` into a held queue,
# fake GPUs, temporary directories) with nothing else measured meanwhile (bench/requests.sh forces a
# full collection each second to read the heap): `gq ps --json` and `gq ps` into a pipe and `gq ps`
# on a 200 x 50 terminal (script(1), whose own time is shown beside), PS_RUNS times each (default 3);
# then, unless PS_RESTART=0, two restarts, each timed from `gq daemon start` until `gq daemon
# status` answers (looked for every 20 ms), with the RSS 10 s after.
# Usage: bench/ps-times.sh   (needs the build: ./mvnw -q -B package -DskipTests)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${PS_JOBS:-100000}
runs=${PS_RUNS:-3}
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-ps-times.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
echo "0 GPU-bench-0 81920 Fake GPU" >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
trap '"$gq" daemon stop >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
ready() {
  for ((i = 0; i < 3000; i++)); do "$gq" daemon status >/dev/null 2>&1 && return 0; sleep 0.02; done
  echo "the daemon did not start; see $GQ_DATA_DIR/gq-daemon.log" >&2
  return 1
}
timed() {
  local label=$1 out=() s e
  shift
  for ((k = 0; k < runs; k++)); do
    s=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    e=$EPOCHREALTIME
    out+=("$(ms "$s" "$e")")
  done
  echo "| $label | ${out[*]} |"
}
"$gq" daemon start >/dev/null 2>&1 || true
ready
"$gq" hold --all >/dev/null
for ((i = 1; i <= jobs; i++)); do echo "python train.py --cell $i --lr 3e-4"; done >"$tmp/batch.txt"
s=$EPOCHREALTIME
"$gq" submit --batch "$tmp/batch.txt" -g 1 >/dev/null 2>&1
e=$EPOCHREALTIME
echo "one batch of $jobs lines: $(ms "$s" "$e") ms (load $(load))"
sleep 5
echo
echo "| $jobs waiting jobs | ms, $runs runs |"
echo "|---|---|"
timed "gq ps --json into a pipe" bash -c "'$gq' ps --json | cat >/dev/null"
timed "gq ps into a pipe" bash -c "'$gq' ps | cat >/dev/null"
timed "gq ps on a 200 x 50 terminal" script -qec "stty rows 50 cols 200; $gq ps" /dev/null
timed "script(1) alone" script -qec "stty rows 50 cols 200; true" /dev/null
echo
if [[ ${PS_RESTART:-1} != 0 ]]; then
  for k in 1 2; do
    "$gq" daemon stop >/dev/null 2>&1
    sleep 2
    s=$EPOCHREALTIME
    "$gq" daemon start >/dev/null 2>&1 || true
    ready
    e=$EPOCHREALTIME
    sleep 10
    echo "restart $k: ready in $(ms "$s" "$e") ms; RSS 10 s later $(awk '/VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$(cat "$GQ_RUNTIME_DIR/gq.pid")/status")"
  done
fi
echo "2 CPUs, load $(load), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
