#!/usr/bin/env bash
# Measures what large requests cost the daemon with a long queue: REQ_JOBS waiting jobs (default
# 100,000) queued by one `gq submit --batch` into a held queue, on fake GPUs and temporary
# directories; then, each REQ_RUNS times (default 3, the median shown): `gq ps --json` and `gq ps`
# into a pipe, and `gq ps` on a terminal (script(1)), timed to 10 ms, with the most heap the daemon
# held during the command (after a full GC, once a second; the time includes those GCs) above what
# it held before;
# then the attacks at once:
# REQ_MCP `gq mcp` sessions (default 8) each sending one 15 MiB line, REQ_PS `gq ps --json` (default 4)
# and REQ_TOP `gq top` on a 10 x 65535 terminal (default 10) that quit after 3 s; and reports each
# client's answer and whether the daemon is the same process afterwards. The daemon starts on an
# empty queue (160 MiB heap); the attacks run again after a restart, which takes the heap the daemon
# noted for its queue (bin/gq-daemon, <data>/daemon-heap). Writes nothing into the repository. Usage: bench/requests.sh   (REQ_JOBS, REQ_RUNS, REQ_MCP, REQ_PS, REQ_TOP; REQ_KEEP=1 keeps the directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${REQ_JOBS:-100000}
runs=${REQ_RUNS:-3}
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-requests.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
echo "0 GPU-bench-0 81920 Fake GPU" >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
cleanup() {
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -z ${REQ_KEEP-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT
# the daemon's own JDK's tools (jstat of another JDK cannot attach)
. "$root/bin/gq-jdk.sh"
gq_find_java
jdk=${java%/bin/java}

ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
pid() { cat "$GQ_RUNTIME_DIR/gq.pid"; }
start_daemon() {
  "$gq" daemon start >/dev/null 2>&1 || true
  for ((i = 0; i < 600; i++)); do
    if "$gq" daemon status >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "the daemon did not start; see $GQ_DATA_DIR/gq-daemon.log" >&2
  exit 1
}
# heap in use (KiB) after a full GC
held() {
  "$jdk/bin/jcmd" "$(pid)" GC.run >/dev/null 2>&1 || true
  "$jdk/bin/jstat" -gc "$(pid)" | awk 'NR == 2 { printf "%.0f", $3 + $4 + $6 + $8 }'
}
# a pipe this shell holds both ends of: a read of it waits out its timeout, a sleep without a process
exec {tick}<> <(:)
# runs "$@" with the heap the daemon holds measured after a full GC every second meanwhile (its end
# looked for every 10 ms, so that a short command is timed to that); prints "ms most-held-above-before-MiB"
measured() {
  local base start end peak=0 now last t
  base=$(held)
  start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 &
  local cmd=$!
  last=${start/./}
  while kill -0 "$cmd" 2>/dev/null; do
    read -rt 0.01 -u "$tick" || true
    t=$EPOCHREALTIME
    ((${t/./} - last >= 1000000)) || continue
    kill -0 "$cmd" 2>/dev/null || break
    now=$(held)
    if ((now > peak)); then peak=$now; fi
    t=$EPOCHREALTIME
    last=${t/./}
  done
  wait "$cmd" || true
  end=$EPOCHREALTIME
  echo "$(ms "$start" "$end") $(awk -v p="$peak" -v b="$base" 'BEGIN { printf "%.1f", (p > b ? p - b : 0) / 1024 }')"
}
median() { sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'; }
# the median time and the median peak of REQ_RUNS runs of "$@"
row() {
  local label=$1 t=() p=() r
  shift
  for ((k = 0; k < runs; k++)); do
    read -r a b < <(measured "$@")
    t+=("$a") p+=("$b")
  done
  printf '| %s | %s | %s |\n' "$label" "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${p[@]}" | median)"
}
on_terminal() { script -qec "stty rows 50 cols 200; $*" /dev/null; }

start_daemon
"$gq" hold --all >/dev/null
for ((i = 1; i <= jobs; i++)); do echo "python train.py --cell $i --lr 3e-4"; done >"$tmp/batch.txt"
start=$EPOCHREALTIME
"$gq" submit --batch "$tmp/batch.txt" -g 1 >/dev/null 2>"$tmp/batch.err" || { cat "$tmp/batch.err" >&2; exit 1; }
end=$EPOCHREALTIME
xmx=$(tr '\0' '\n' <"/proc/$(pid)/cmdline" | grep '^-Xmx' || echo '?')
echo "one batch of $jobs lines: $(ms "$start" "$end") ms; the daemon runs with $xmx (started on an empty queue; the next start takes what it notes for this one)"
echo
echo "| $jobs waiting jobs | ms (median of $runs) | most heap held during it above before, after a full GC, MiB |"
echo "|---|---:|---:|"
row "gq ps --json > pipe" "$gq" ps --json
row "gq ps > pipe" "$gq" ps
row "gq ps on a 200 x 50 terminal" on_terminal "$gq" ps

# the attacks at once
big=$tmp/big.in
{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}'
  printf '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"'
  head -c $((15 << 20)) /dev/zero | tr '\0' x
  echo '"}}'
  echo '{"jsonrpc":"2.0","id":3,"method":"ping"}'
} >"$big"
attack() {
  local before start end answered=0 busy=0 refused=0 lost=0 listed=0 said=0 same=no
  before=$(pid)
  rm -f "$tmp"/mcp.* "$tmp"/ps.*
  start=$EPOCHREALTIME
  for ((i = 0; i < ${REQ_MCP:-8}; i++)); do "$gq" mcp <"$big" >"$tmp/mcp.out.$i" 2>"$tmp/mcp.err.$i" & done
  for ((i = 0; i < ${REQ_PS:-4}; i++)); do "$gq" ps --json >"$tmp/ps.out.$i" 2>"$tmp/ps.err.$i" & done
  for ((i = 0; i < ${REQ_TOP:-10}; i++)); do script -qec "stty rows 65535 cols 10; timeout -s INT 3 $gq top" /dev/null >/dev/null 2>&1 & done
  wait
  end=$EPOCHREALTIME
  for ((i = 0; i < ${REQ_MCP:-8}; i++)); do
    if grep -q '"id":2,"result"' "$tmp/mcp.out.$i"; then answered=$((answered + 1))
    elif grep -q '"code":-32000' "$tmp/mcp.out.$i"; then busy=$((busy + 1))
    elif [[ ! -s $tmp/mcp.out.$i && $(wc -l <"$tmp/mcp.err.$i") -eq 1 ]]; then refused=$((refused + 1))
    else lost=$((lost + 1)); echo "no answer: $(head -c 300 "$tmp/mcp.out.$i") $(head -c 300 "$tmp/mcp.err.$i")" >&2; fi
  done
  for ((i = 0; i < ${REQ_PS:-4}; i++)); do
    if [[ $(grep -c '^    "id": ' "$tmp/ps.out.$i" || true) -eq $jobs ]]; then listed=$((listed + 1))
    elif [[ $(wc -l <"$tmp/ps.err.$i") -eq 1 ]]; then said=$((said + 1)); fi
  done
  if [[ -f $GQ_RUNTIME_DIR/gq.pid && $(pid) == "$before" ]] && kill -0 "$before" 2>/dev/null; then same=yes; fi
  echo "attacks at once ($1), $(ms "$start" "$end") ms: gq mcp 15 MiB lines answered $answered, -32000 busy $busy," \
    "refused in one line $refused, no answer $lost; gq ps --json whole $listed, refused in one line $said;" \
    "the same daemon afterwards: $same; out-of-memory lines in its log: $(grep -c OutOfMemoryError "$GQ_DATA_DIR/gq-daemon.log" || true)"
}
echo
attack "-Xmx${xmx#-Xmx}"
# the next start takes the heap the daemon noted for this queue (it notes it every minute)
for ((i = 0; i < 130; i++)); do
  [[ $(cat "$GQ_DATA_DIR/daemon-heap" 2>/dev/null || echo 160m) == 160m ]] || break
  sleep 0.5
done
old=$(pid)
"$gq" daemon stop >/dev/null
while kill -0 "$old" 2>/dev/null; do sleep 0.2; done
start=$EPOCHREALTIME
start_daemon
end=$EPOCHREALTIME
xmx=$(tr '\0' '\n' <"/proc/$(pid)/cmdline" | grep '^-Xmx' || echo '?')
echo "restarted with the noted heap $xmx: ready in $(ms "$start" "$end") ms"
attack "$xmx"
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
