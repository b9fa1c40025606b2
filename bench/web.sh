#!/usr/bin/env bash
# Measures gq web: the page's first byte and first paint with WEB_JOBS (default 1,000) jobs in the
# history, a scrape of /metrics, and what WEB_PAGES (default 10) open pages cost the daemon at rest.
#   first byte    curl's time to the first byte of / (the whole page is rendered before it is sent),
#                 WEB_RUNS (default 20) runs after 3 warm-up runs: median and p95
#   first paint   headless chromium (Debian's) loading the page and printing its DOM, process wall
#                 time, and the page's own first-contentful-paint is not available headless this way,
#                 so this is an upper bound: WEB_PAINTS (default 5) runs, median
#   /metrics      curl's total time of one scrape, WEB_RUNS runs: median and p95
#   at rest       the daemon's utime+stime (/proc/PID/stat) over WEB_SECONDS (default 60) with no page,
#                 then with WEB_PAGES pages following /events (curl), % of one core
# Fake GPUs (2), temporary directories. Prints a table; nothing is written to docs/.
# Usage: bench/web.sh     (needs the build: ./mvnw -q -B package -DskipTests; chromium and curl)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${WEB_JOBS:-1000}
runs=${WEB_RUNS:-20}
paints=${WEB_PAINTS:-5}
pages=${WEB_PAGES:-10}
seconds=${WEB_SECONDS:-60}
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is needed" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-web.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
printf '0 GPU-bench-0 81920 Fake GPU\n1 GPU-bench-1 81920 Fake GPU\n' >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
followers=()
cleanup() {
  for p in "${followers[@]}"; do kill "$p" 2>/dev/null || true; done
  "$gq" cancel --group bench-web -y >/dev/null 2>&1 || true
  "$gq" daemon stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$gq" daemon start >/dev/null 2>&1 || true
for ((i = 0; i < 600; i++)); do "$gq" daemon status >/dev/null 2>&1 && break; sleep 0.5; done
pid=$(cat "$GQ_RUNTIME_DIR/gq.pid")
for ((n = 1; n <= jobs; n++)); do printf '{"argv": ["true"], "gpus": 0, "name": "job-%d"}\n' "$n"; done |
  "$gq" submit --batch - --group history >/dev/null
"$gq" wait --group history >/dev/null || true
"$gq" run -g 1 --group bench-web --name running sleep 3600 >/dev/null
url=$("$gq" web | sed -n 's/^Serving the page at //p')
base=${url%%/\?*}
token=${url##*token=}

stats() { sort -n | awk '{a[NR]=$1} END {printf "%.1f ms median, %.1f ms p95 (%d runs)", a[int((NR+1)/2)]*1000, a[int(NR*0.95+0.999)]*1000, NR}'; }
for ((i = 0; i < 3; i++)); do curl -s -o /dev/null "$url"; curl -s -o /dev/null "$base/metrics?token=$token"; done
byte=$(for ((i = 0; i < runs; i++)); do curl -s -o /dev/null -w '%{time_starttransfer}\n' "$url"; done | stats)
scrape=$(for ((i = 0; i < runs; i++)); do curl -s -o /dev/null -w '%{time_total}\n' "$base/metrics?token=$token"; done | stats)
size=$(curl -s "$url" | wc -c)
paint="(no chromium)"
if command -v chromium >/dev/null; then
  paint=$(for ((i = 0; i < paints; i++)); do
    prof=$tmp/profile-$i
    s=$(date +%s.%N)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir="$prof" --dump-dom "$url" >/dev/null 2>&1
    echo "$(date +%s.%N) - $s" | bc
  done | stats)
fi
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); sleep "$seconds"; t1=$(ticks)
rest=$(echo "scale=2; ($t1 - $t0) * 100 / $hz / $seconds" | bc)
for ((i = 0; i < pages; i++)); do curl -s -N -o /dev/null "$base/events?token=$token" & followers+=($!); done
sleep 5
t0=$(ticks); sleep "$seconds"; t1=$(ticks)
open=$(echo "scale=2; ($t1 - $t0) * 100 / $hz / $seconds" | bc)
echo "| measure | figure |"
echo "|---|---|"
echo "| first byte of / with $jobs jobs in the history ($size bytes) | $byte |"
echo "| chromium --headless --dump-dom of / (process start to exit) | $paint |"
echo "| one scrape of /metrics | $scrape |"
echo "| daemon CPU at rest, no page, ${seconds} s | ${rest} % of a core |"
echo "| daemon CPU at rest, $pages pages following /events, ${seconds} s | ${open} % of a core |"
