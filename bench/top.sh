#!/usr/bin/env bash
# Measures gq top: how long the first screen takes, and what one running gq top costs the daemon.
# The native client runs in a pseudo-terminal of TOP_COLS x TOP_ROWS (default 80 x 24) made by a
# small Python helper (pty, no terminal emulator in between). With 2 fake GPUs, TOP_JOBS (default
# 20) live jobs (up to 10 of them, and at most half, running on -g 0; the rest waiting, queued by one
# `gq submit --batch` into a held group) and TOP_HISTORY (default 200) ended jobs:
#   first screen  `gq top` started .. the first screen's title read from the terminal, TOP_RUNS
#                 (default 20) runs after 3 warm-up runs, each ended with q: median and p95
#   daemon CPU    the daemon's utime+stime (/proc/PID/stat) over TOP_SECONDS (default 60) with
#                 no client, then with one gq top open, from its fifth second for as long and
#                 on until 8 s after it ended (what the daemon does once it has gone, such as
#                 its idle collection, counts with it; TOP_PAIRS times, default 1, alternating),
#                 % of one core; the frames gq top drew meanwhile (bursts of output after a
#                 pause) and the CPU each cost the daemon (with less without over as long, over
#                 the frames), and of that the CPU of the daemon's threads that serve clients, where
#                 gq top runs; and the bytes it sent its terminal (only what changed is sent)
# A queue of 10,000 jobs or more restarts the daemon once queued, so that it runs with the heap it
# noted for the queue (as bench/requests.sh does). Fake GPUs, temporary directories. Writes its
# table into docs/benchmarks.md between the TOP_MARK:begin and TOP_MARK:end markers (TOP_MARK
# default top; the long queue's table is top-long: TOP_JOBS=100000 TOP_COLS=200 TOP_ROWS=60
# TOP_RUNS=5 TOP_SECONDS=60 TOP_PAIRS=3 TOP_MARK=top-long bench/top.sh).
# TOP_RELEASE=1 releases the waiting jobs' group before measuring, so that they wait for GPUs.
# Usage: bench/top.sh     (needs the build: ./mvnw -q -B package -DskipTests; TOP_KEEP=1 keeps the directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${TOP_RUNS:-20}
seconds=${TOP_SECONDS:-60}
jobs=${TOP_JOBS:-20}
history=${TOP_HISTORY:-200}
cols=${TOP_COLS:-80}
rows=${TOP_ROWS:-24}
mark=${TOP_MARK:-top}
running=$((jobs / 2 < 10 ? jobs / 2 : 10))
[[ -f $root/actors/target/gq-daemon.jar ]] || { echo "build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
[[ -x $root/client/target/gq ]] || { echo "the native client is not built: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed for the pseudo-terminal" >&2; exit 1; }
tmp=$(mktemp -d /tmp/gq-top.XXXXXX)
export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run GQ_FAKE_NVML=$tmp/fake
mkdir -p "$GQ_FAKE_NVML/procs"
printf '0 GPU-bench-0 81920 Fake GPU\n1 GPU-bench-1 81920 Fake GPU\n' >"$GQ_FAKE_NVML/gpus"
gq=$root/bin/gq
cleanup() {
  "$gq" cancel --group bench-top -y >/dev/null 2>&1 || true
  "$gq" cancel --group later -y >/dev/null 2>&1 || true
  for ((i = 0; i < 120; i++)); do
    "$gq" ps --json 2>/dev/null | grep -q '"state": *"\(STARTING\|RUNNING\|CANCELLING\)"' || break
    sleep 0.5
  done
  "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -z ${TOP_KEEP-} ]]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

"$gq" daemon start >/dev/null 2>&1 || true
for ((i = 0; i < 600; i++)); do "$gq" daemon status >/dev/null 2>&1 && break; sleep 0.5; done
pid=$(cat "$GQ_RUNTIME_DIR/gq.pid")
for ((n = 1; n <= history; n++)); do printf '{"argv": ["true"], "gpus": 0}\n'; done |
  "$gq" submit --batch - --group history >/dev/null
"$gq" wait --group history >/dev/null || true
"$gq" hold --group later >/dev/null
for ((n = 1; n <= running; n++)); do "$gq" run -g 0 --group bench-top --name "train-$n" sleep 3600 >/dev/null; done
for ((n = 1; n <= jobs - running; n++)); do printf '{"argv": ["sleep", "3600"], "name": "wait-%d"}\n' "$n"; done >"$tmp/batch.txt"
"$gq" submit --batch "$tmp/batch.txt" -g 1 --group later >/dev/null
if ((jobs >= 10000)); then
  # a long queue: the daemon restarts with the heap it noted for it (every minute), as it would after
  # any restart, not on the one it took for an empty queue
  for ((i = 0; i < 130; i++)); do
    [[ $(cat "$GQ_DATA_DIR/daemon-heap" 2>/dev/null || echo 160m) == 160m ]] || break
    sleep 0.5
  done
  "$gq" daemon stop >/dev/null
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  "$gq" daemon start >/dev/null 2>&1 || true
  for ((i = 0; i < 600; i++)); do "$gq" daemon status >/dev/null 2>&1 && break; sleep 0.5; done
  pid=$(cat "$GQ_RUNTIME_DIR/gq.pid")
fi
if [[ -n ${TOP_RELEASE-} ]]; then
  # the waiting jobs wait for GPUs rather than for a hold: why comes from a plan of the queue
  "$gq" release --group later >/dev/null
  sleep 5
fi
heap=$(tr '\0' '\n' <"/proc/$pid/cmdline" | sed -n 's/^-Xmx//p')

# The helper: runs gq top in a pseudo-terminal; "first" prints the seconds until the title shows,
# "hold S" keeps it open S seconds and prints the bytes it sent and the frames it drew (a frame:
# output after at least 0.3 s without any), then the moment each frame began, a line each.
cat >"$tmp/top_pty.py" <<'PY'
import fcntl, os, pty, select, struct, sys, termios, time
mode, gq, cols, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t0 = time.monotonic()
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execv(gq, [gq, "top"])
seen, got, first, frames, last, stamps = b"", 0, None, 0, 0.0, []
deadline = t0 + (float(sys.argv[5]) if mode == "hold" else 120)
while time.monotonic() < deadline:
    r, _, _ = select.select([fd], [], [], 0.05)
    if not r:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    got += len(chunk)
    now = time.monotonic()
    if now - last >= 0.3:
        frames += 1
        stamps.append(time.time())
    last = now
    seen = (seen + chunk)[-4096:]
    if first is None and b"gq top" in seen:
        first = time.monotonic() - t0
        if mode == "first":
            break
os.write(fd, b"q")
# read on until it has gone: a client still drawing a screen when the q comes blocks on a full
# terminal until its output is read, and would never see the q
end = time.monotonic() + 30
while os.waitpid(pid, os.WNOHANG)[0] == 0:
    if time.monotonic() > end:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        break
    if select.select([fd], [], [], 0.05)[0]:
        try:
            os.read(fd, 65536)
        except OSError:
            pass
print((f"{first:.4f}" if first is not None else "120") if mode == "first" else f"{got} {frames}")
if mode == "hold":
    for t in stamps:
        print(f"{t:.3f}")
PY
client=$root/client/target/gq
for ((i = 0; i < 3; i++)); do python3 "$tmp/top_pty.py" first "$client" "$cols" "$rows" >/dev/null; done
times=()
for ((i = 0; i < runs; i++)); do times+=("$(python3 "$tmp/top_pty.py" first "$client" "$cols" "$rows")"); done
read -r median p95 < <(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; p=a[int(NR*0.95+0.999)]; printf "%.0f %.0f\n", m*1000, p*1000}')

ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# the daemon's threads that serve clients (gq top runs on one of them)
served() {
  for t in /proc/"$pid"/task/*; do
    if [[ $(cat "$t/comm" 2>/dev/null) == gq-client* ]]; then awk '{print $14 + $15}' "$t/stat" 2>/dev/null || true; fi
  done | awk '{s += $1} END {print s + 0}'
}
hz=$(getconf CLK_TCK)
idle_ticks=0 busy_ticks=0 served_ticks=0 inside=0 bytes=0 held=0 busy_secs=0
sleep 5
# without a client, then with one gq top open, TOP_PAIRS times (default 1): the daemon's own work
# at a long queue varies from second to second, and alternating spreads that over both
for ((k = 0; k < ${TOP_PAIRS:-1}; k++)); do
  a=$(ticks); sleep "$seconds"; b=$(ticks)
  idle_ticks=$((idle_ticks + b - a))
  python3 "$tmp/top_pty.py" hold "$client" "$cols" "$rows" $((seconds + 10)) >"$tmp/held" &
  helper=$!
  sleep 5
  from=$EPOCHREALTIME; a=$(ticks); c=$(served); sleep "$seconds"; d=$(served); to=$EPOCHREALTIME
  wait "$helper"
  # what the session leaves the daemon to do once it has gone (its idle collection, a full one
  # with a long queue, within a few seconds) is counted with it, not in the next pair's quiet
  sleep 8
  b=$(ticks); until=$EPOCHREALTIME
  busy_ticks=$((busy_ticks + b - a)) served_ticks=$((served_ticks + d - c)) held=$((held + seconds + 10))
  busy_secs=$(awk -v s="$busy_secs" -v a="$from" -v b="$until" 'BEGIN {printf "%.3f", s + b - a}')
  bytes=$((bytes + $(head -1 "$tmp/held" | cut -d' ' -f1)))
  # the frames begun in the measured seconds
  inside=$((inside + $(tail -n +2 "$tmp/held" | awk -v a="$from" -v b="$to" '$1 >= a && $1 < b {n++} END {print n + 0}')))
done
total=$((seconds * ${TOP_PAIRS:-1}))
idle=$(awk -v d=$idle_ticks -v hz="$hz" -v s=$total 'BEGIN {printf "%.2f", d / hz / s * 100}')
busy=$(awk -v d=$busy_ticks -v hz="$hz" -v s="$busy_secs" 'BEGIN {printf "%.2f", d / hz / s * 100}')
rate=$(awk -v b="$bytes" -v s=$held 'BEGIN {printf "%.0f", b / s}')
extra=$(awk -v a="$busy" -v b="$idle" 'BEGIN {printf "%.2f", a - b}')
# the CPU of the sessions (each from its fifth second until 8 s after it ended) less what the daemon
# uses without a client over as long, over the frames drawn while measured
per=$(awk -v b=$busy_ticks -v i=$idle_ticks -v bs="$busy_secs" -v is=$total -v hz="$hz" -v f="$inside" \
  'BEGIN {printf "%.1f", (f > 0 ? (b - i * bs / is) / hz / f * 1000 : 0)}')
own=$(awk -v d=$served_ticks -v hz="$hz" -v f="$inside" 'BEGIN {printf "%.1f", (f > 0 ? d / hz / f * 1000 : 0)}')
pairs=${TOP_PAIRS:-1}
span="${seconds} s"
((pairs > 1)) && span="${pairs} x ${seconds} s, alternating"

table=$(cat <<MD
_Generated by \`bench/top.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), gq $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), the daemon's heap limit ${heap}._

| measure | value |
|---|---|
| first screen of \`gq top\` (${cols}x${rows}, ${jobs} live jobs: ${running} running, $((jobs - running)) waiting; ${history} ended), median / p95 of ${runs} | ${median} ms / ${p95} ms |
| daemon CPU, no client, ${span} | ${idle} % of one core |
| daemon CPU with one \`gq top\` open, ${span} | ${busy} % of one core (+${extra}) |
| frames \`gq top\` drew meanwhile; the daemon CPU each cost (with less without) | ${inside}; ${per} ms a frame |
| of which the threads that serve clients (\`gq top\`'s own), a frame | ${own} ms |
| bytes one \`gq top\` sends its terminal | ${rate} B/s |
MD
)
doc=$root/docs/benchmarks.md
if grep -q "<!-- $mark:begin -->" "$doc"; then
  TABLE=$table MARK=$mark perl -0pi -e 's/<!-- \Q$ENV{MARK}\E:begin -->.*<!-- \Q$ENV{MARK}\E:end -->/<!-- $ENV{MARK}:begin -->\n$ENV{TABLE}\n<!-- $ENV{MARK}:end -->/s' "$doc"
fi
echo "$table"
