#!/usr/bin/env bash
# Measures gq web: the page's first byte and first paint with WEB_JOBS (default 1,000) jobs in the
# history, a scrape of /metrics, and what WEB_PAGES (default 10) open pages cost the daemon at rest.
#   first byte    curl's time to the first byte of / (the whole page is rendered before it is sent),
#                 WEB_RUNS (default 20) runs after 3 warm-up runs: median and p95
#   in the browser  one headless chromium (Debian's), started once and driven through chromedriver's
#                 WebDriver protocol (what Selenium speaks), loads / WEB_PAINTS (default 20) times
#                 after 3 warm-up loads, from about:blank each time, and reads the page's own
#                 Performance API: navigation timing's responseStart and loadEventEnd, and paint
#                 timing's first-contentful-paint, in ms from the navigation's start: median and p95
#   /metrics      curl's total time of one scrape, WEB_RUNS runs: median and p95
#   at rest       the daemon's utime+stime (/proc/PID/stat) over WEB_SECONDS (default 60) with no page,
#                 then with WEB_PAGES pages following /events (curl), % of one core
# Fake GPUs (2), temporary directories. Prints a table; nothing is written to docs/.
# Usage: bench/web.sh     (needs the build: ./mvnw -q -B package -DskipTests; curl; chromium,
#                          chromedriver and jq for the browser's rows)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${WEB_JOBS:-1000}
runs=${WEB_RUNS:-20}
paints=${WEB_PAINTS:-20}
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
wd() { curl -s -X "$1" -H 'Content-Type: application/json' ${3:+-d "$3"} "http://127.0.0.1:$dport$2"; }
msstats() { sort -n | awk '{a[NR]=$1} END {printf "%.1f ms median, %.1f ms p95 (%d loads)", a[int((NR+1)/2)], a[int(NR*0.95+0.999)], NR}'; }
fresp="(no chromium, chromedriver or jq)"; fcp=$fresp; fload=$fresp
if command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v jq >/dev/null; then
  dport=$((20000 + RANDOM % 20000))
  chromedriver --port="$dport" >/dev/null 2>&1 & followers+=($!)
  for ((i = 0; i < 100; i++)); do [[ $(wd GET /status | jq -r .value.ready 2>/dev/null) == true ]] && break; sleep 0.1; done
  args='["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking",'
  args+='"--disable-component-update","--disable-sync","--disable-dev-shm-usage","--window-size=1280,900","--user-data-dir='"$tmp"'/profile"]'
  sid=$(wd POST /session '{"capabilities":{"alwaysMatch":{"goog:chromeOptions":{"binary":"'"$(command -v chromium)"'","args":'"$args"'}}}}' | jq -r .value.sessionId)
  # waits for the first contentful paint, then answers [responseStart, FCP, loadEventEnd] (ms from the navigation's start)
  probe='var done = arguments[0]; (function look() { var p = performance.getEntriesByName("first-contentful-paint")[0];'
  probe+=' var n = performance.getEntriesByType("navigation")[0]; if (p && n && n.loadEventEnd > 0) done([n.responseStart, p.startTime, n.loadEventEnd]);'
  probe+=' else setTimeout(look, 5); })();'
  body=$(jq -cn --arg s "$probe" '{script: $s, args: []}')
  for ((i = 0; i < paints + 3; i++)); do
    wd POST "/session/$sid/url" '{"url":"about:blank"}' >/dev/null
    wd POST "/session/$sid/url" "{\"url\":\"$url\"}" >/dev/null
    t=$(wd POST "/session/$sid/execute/async" "$body" | jq -r '.value | @tsv')
    ((i >= 3)) && echo "$t"
  done >"$tmp/timings"
  wd DELETE "/session/$sid" >/dev/null
  fresp=$(cut -f1 "$tmp/timings" | msstats); fcp=$(cut -f2 "$tmp/timings" | msstats); fload=$(cut -f3 "$tmp/timings" | msstats)
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
echo "| in the browser: first byte (responseStart) | $fresp |"
echo "| in the browser: first contentful paint | $fcp |"
echo "| in the browser: load event end | $fload |"
echo "| one scrape of /metrics | $scrape |"
echo "| daemon CPU at rest, no page, ${seconds} s | ${rest} % of a core |"
echo "| daemon CPU at rest, $pages pages following /events, ${seconds} s | ${open} % of a core |"
