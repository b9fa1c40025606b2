#!/usr/bin/env bash
# bench/run.sh: measures gq against the performance budgets of the design brief, on this machine.
#
#   bench/run.sh [ps|submit|handoff|ready|idle|all]      (default: all)
#
#   ps       `gq ps` wall time with the daemon up and 1,000 finished jobs in history, next to the
#            JVM's own start and the client without a daemon (what the time is made of)
#   submit   `gq -g 0 true` wall time; the daemon's time per submit request; 1,000 jobs in one
#            `gq submit --batch` call
#   handoff  a job's exit to the next waiting job's start on the freed GPU (1 fake GPU, 30 jobs)
#   ready    `gq daemon start` until `gq daemon status` answers: empty history, 1,000 jobs
#   idle     the daemon's RSS after 10 s idle and its CPU use over the next 30 s
#   all      every part, then rewrites the generated part of docs/benchmarks.md
#
# Needs the build (it builds nothing) and uses fake GPUs in its own temporary data and runtime
# directories; it stops every daemon it started when it ends, however it ends. Uses hyperfine
# when installed, else a timing loop in bash. Knobs (environment): BENCH_RUNS (30),
# BENCH_HISTORY (1000), BENCH_HANDOFF_JOBS (30), BENCH_READY_STARTS (5), BENCH_IDLE_SETTLE (10),
# BENCH_IDLE_SECONDS (30), BENCH_NO_HYPERFINE=1 (use the bash loop), BENCH_KEEP=1 (keep the
# temporary directory), BENCH_DOC=path (where `all` writes; default docs/benchmarks.md),
# BENCH_QUIET_LOAD=L (first wait, up to BENCH_QUIET_WAIT s (600), for a 1-minute load average
# below L: on a shared machine other work inflates every figure).
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

part=${1:-all}
case $part in
  ps | submit | handoff | ready | idle | all) ;;
  -h | --help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bench/run.sh [ps|submit|handoff|ready|idle|all]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${BENCH_RUNS:-30}
HISTORY=${BENCH_HISTORY:-1000}
HANDOFF_JOBS=${BENCH_HANDOFF_JOBS:-30}
READY_STARTS=${BENCH_READY_STARTS:-5}
IDLE_SETTLE=${BENCH_IDLE_SETTLE:-10}
IDLE_SECONDS=${BENCH_IDLE_SECONDS:-30}
DOC=${BENCH_DOC:-$root/docs/benchmarks.md}
WARMUP=3
gq=$root/bin/gq   # until the build is copied (snapshot_build)

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

# ---- the build must exist ----------------------------------------------------------------------
build_cmd="cd $root && export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow && mvn -q -B -o package -DskipTests   (or: ./mvnw -q -B package -DskipTests)"
for f in client/target/gq-client-0.1.0.jar protocol/target/gq-protocol-0.1.0.jar \
  actors/target/gq-daemon-0.1.0.jar host/target/gq-shim; do
  [[ -f $root/$f ]] || die "$f is missing: build gq first:
  $build_cmd"
done
compgen -G "$root/actors/target/lib/*.jar" >/dev/null || die "actors/target/lib is empty: build gq first:
  $build_cmd"

# the Java that bin/gq and bin/gq-daemon pick, and the client's JVM flags
# shellcheck source-path=SCRIPTDIR/.. source=bin/gq-jdk.sh
. "$root/bin/gq-jdk.sh"
gq_find_java
java_home=${java%/bin/java}
jdk_desc=$("$java" -version 2>&1 | sed -n 2p)
[[ -n $jdk_desc ]] || jdk_desc=$("$java" -version 2>&1 | head -1)

use_hyperfine=0
if [[ -z ${BENCH_NO_HYPERFINE-} ]] && command -v hyperfine >/dev/null; then use_hyperfine=1; fi
if ((use_hyperfine)); then
  timer="hyperfine $(hyperfine --version | awk '{print $2}') (-N, no shell; $WARMUP warm-up runs)"
else
  timer="a bash loop timing each run with EPOCHREALTIME ($WARMUP warm-up runs; install hyperfine for the usual tool)"
fi

# ---- temporary directories, daemons, cleanup ---------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/gq-bench.XXXXXX")
mkdir -p "$work/res"
rows=$work/rows.tsv   # label, n, median, p90, p95, min, max, unit, budget, verdict
notes=$work/notes.txt
: >"$rows"
: >"$notes"
started_pids=()
started_pid=

# Stops every daemon this run started: `gq daemon stop` per instance, then by PID, then any process
# (a job left running) whose environment names this run's unique temporary directory.
cleanup() {
  local rc=$? inst pid p deadline
  trap - EXIT INT TERM
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
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
    if grep -qzF "GQ_DATA_DIR=$work/" "$p/environ" 2>/dev/null; then
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

# A private copy of the built checkout (same layout: bin/, */target/, pom.xml), so that a rebuild
# while the benchmark runs cannot change or break the jars under a starting daemon.
snapshot_build() {
  local snap=$work/checkout before after f
  local files=(bin/gq bin/gq-daemon bin/gq-jdk.sh install.sh pom.xml client/target/gq-client-0.1.0.jar
    protocol/target/gq-protocol-0.1.0.jar actors/target/gq-daemon-0.1.0.jar host/target/gq-shim)
  for _ in 1 2 3 4 5; do
    rm -rf "$snap"
    mkdir -p "$snap/bin" "$snap/client/target" "$snap/protocol/target" "$snap/actors/target/lib" "$snap/host/target"
    before=$(cd "$root" && stat -c '%n %s %Y' "${files[@]}" actors/target/lib/*.jar)
    for f in "${files[@]}"; do cp -p "$root/$f" "$snap/$f"; done
    cp -p "$root"/actors/target/lib/*.jar "$snap/actors/target/lib/"
    if [[ -f $root/client/target/gq-client.aot ]]; then cp -p "$root/client/target/gq-client.aot" "$snap/client/target/"; fi
    after=$(cd "$root" && stat -c '%n %s %Y' "${files[@]}" actors/target/lib/*.jar)
    if [[ $before == "$after" ]]; then
      snapshot=$snap
      return 0
    fi
    say "the build changed while it was copied (a rebuild is running?); trying again in 20 s"
    sleep 20
  done
  die "the build kept changing while it was copied; run the benchmark when no build is running"
}

now_us() {
  if [[ -n ${EPOCHREALTIME-} ]]; then
    local t=${EPOCHREALTIME/[.,]/}
    echo "$t"
  else
    echo $(($(date +%s%N) / 1000))
  fi
}

# use_instance NAME GPUS: points GQ_DATA_DIR, GQ_RUNTIME_DIR and GQ_FAKE_NVML at instance NAME,
# made with GPUS fake GPUs on first use.
use_instance() {
  local dir=$work/inst/$1 i
  if [[ ! -d $dir ]]; then
    mkdir -p "$dir/fake/procs"
    for ((i = 0; i < $2; i++)); do
      echo "$i GPU-bench-$1-$i 81559 Fake Bench GPU" >>"$dir/fake/gpus"
      mkdir -p "$dir/fake/procs/GPU-bench-$1-$i"
    done
  fi
  export GQ_DATA_DIR=$dir/data GQ_RUNTIME_DIR=$dir/run GQ_FAKE_NVML=$dir/fake
}

# the pid of the current instance's daemon, or nothing
daemon_pid() {
  local out
  out=$("$gq" daemon status 2>/dev/null) || return 0
  [[ $out =~ \(pid\ ([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
  return 0
}

# starts the current instance's daemon; sets started_pid
start_daemon() {
  local out deadline
  if ! out=$(timeout 60 "$gq" daemon start 2>&1); then
    # the client waits 15 s for a new daemon; on a loaded machine it can take longer
    deadline=$((SECONDS + 60))
    until out=$("$gq" daemon status 2>&1); do
      ((SECONDS < deadline)) || die "gq daemon start failed, and no daemon answered within 60 s more: $out"
      sleep 0.5
    done
    note "a \`gq daemon start\` gave up (its limit is 15 s) while the daemon was still starting; it answered later"
  fi
  [[ $out =~ \(pid\ ([0-9]+) ]] || die "cannot read the daemon's pid from: $out"
  started_pid=${BASH_REMATCH[1]}
  started_pids+=("$started_pid")
}

stop_daemon() {
  local pid
  pid=$(daemon_pid)
  timeout 30 "$gq" daemon stop >/dev/null 2>&1 || true
  if [[ -n $pid ]]; then
    local deadline=$((SECONDS + 15))
    while kill -0 "$pid" 2>/dev/null; do
      ((SECONDS < deadline)) || die "daemon $pid did not exit within 15 s of 'gq daemon stop'"
      sleep 0.05
    done
  fi
}

# what the current daemon shows, for a failure message
diagnose() {
  say "--- gq ps:"
  timeout 20 "$gq" ps 2>&1 | head -20 >&2 || true
  say "--- gq gpu:"
  timeout 20 "$gq" gpu 2>&1 | head -10 >&2 || true
  say "--- the daemon log's last lines:"
  tail -15 "$GQ_DATA_DIR/gq-daemon.log" >&2 || true
}

# waits (up to $1 s) until the current daemon has no running or waiting job
wait_no_live_jobs() {
  local deadline=$((SECONDS + $1)) out
  while ((SECONDS < deadline)); do
    out=$("$gq" daemon status 2>/dev/null) || true
    if [[ $out =~ Jobs:\ +0\ running,\ 0\ waiting ]]; then return 0; fi
    sleep 0.5
  done
  return 1
}

# ---- timing and statistics -----------------------------------------------------------------------

# stats FILE: "n median p90 p95 min max" of the numbers in FILE (nearest-rank percentiles)
stats() {
  sort -g "$1" | awk '
    function rank(p,   i) { i = int(p * n); if (i < p * n) i++; if (i < 1) i = 1; return a[i] }
    { a[++n] = $1 }
    END {
      if (n == 0) { print "0 - - - - -"; exit }
      med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      printf "%d %.1f %.1f %.1f %.1f %.1f\n", n, med, rank(0.9), rank(0.95), a[1], a[n]
    }'
}

# row LABEL FILE UNIT BUDGET VERDICT: a table row from the numbers in FILE
row() {
  local s
  s=$(stats "$2")
  # shellcheck disable=SC2086
  set -- "$1" "$3" "$4" "$5" $s
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$5" "$6" "$7" "$8" "$9" "${10}" "$2" "$3" "$4" >>"$rows"
}

# row1 LABEL VALUE UNIT BUDGET VERDICT: a table row for one value
row1() {
  printf '%s\t1\t%s\t-\t-\t-\t-\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$rows"
}

median_of() { stats "$1" | awk '{print $2}'; }

# verdict VALUE LIMIT: "met" when VALUE <= LIMIT
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v + 0 <= l + 0) ? "met" : "NOT met" }'; }

note() { printf '%s\n' "$*" >>"$notes"; say "  note: $*"; }

# measure KEY RUNS ALLOW_FAIL CMD...: wall times (ms) of CMD into $work/res/KEY
measure() {
  local key=$1 runs=$2 allow_fail=$3 out=$work/res/$1
  shift 3
  : >"$out"
  if ((use_hyperfine)); then
    local cmdline flags=(-N --style none --warmup "$WARMUP" --runs "$runs" --export-json "$out.json")
    cmdline=$(printf '%q ' "$@")
    if ((allow_fail)); then flags+=(-i); fi
    hyperfine "${flags[@]}" -- "$cmdline" >"$out.log" 2>&1 || { cat "$out.log" >&2; die "hyperfine failed: $cmdline"; }
    tr -d ' \n' <"$out.json" | sed 's/.*"times":\[\([^]]*\)\].*/\1/' | tr ',' '\n' |
      awk 'NF { printf "%.3f\n", $1 * 1000 }' >"$out"
  else
    local i t0 t1 rc
    for ((i = 0; i < WARMUP + runs; i++)); do
      t0=$(now_us)
      rc=0
      "$@" >/dev/null 2>"$out.err" || rc=$?
      t1=$(now_us)
      if ((rc != 0 && !allow_fail)); then die "failed (exit $rc): $*: $(tail -5 "$out.err")"; fi
      if ((i >= WARMUP)); then awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }' >>"$out"; fi
    done
  fi
  say "  $key: $(stats "$out" | awk '{printf "n=%s median %s ms, p90 %s ms, min %s ms", $1, $2, $3, $5}')"
}

# ---- a raw protocol client: many requests from one JVM -------------------------------------------
# Sends gq requests over the socket as bin/gq would, one connection each, and records the time of
# each request (connect .. exit frame). Used to fill the history quickly and to separate the
# daemon's share of a command's time from the client JVM's start.
raw_client_src=$work/RawRequests.java
cat >"$raw_client_src" <<'EOF'
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** RawRequests SOCKET COUNT TIMES_FILE CWD GQ_ARG...: COUNT requests, each time in ms to TIMES_FILE. */
public class RawRequests {
  public static void main(String[] args) throws Exception {
    UnixDomainSocketAddress socket = UnixDomainSocketAddress.of(args[0]);
    int count = Integer.parseInt(args[1]);
    Path timesFile = Path.of(args[2]);
    StringBuilder fixed = new StringBuilder("\",\"argv\":[");
    for (int i = 4; i < args.length; i++) {
      if (i > 4) fixed.append(',');
      quote(fixed, args[i]);
    }
    fixed.append("],\"cwd\":");
    quote(fixed, args[3]);
    fixed.append(",\"env\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new TreeMap<>(System.getenv()).entrySet()) {
      if (!first) fixed.append(',');
      first = false;
      quote(fixed, e.getKey());
      fixed.append(':');
      quote(fixed, e.getValue());
    }
    fixed.append("},\"stdin_tty\":false,\"stdout_tty\":false,\"stderr_tty\":false,\"width\":80}\n");
    int failed = 0;
    long begin = System.nanoTime();
    try (PrintWriter times = new PrintWriter(Files.newBufferedWriter(timesFile))) {
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        String request = "{\"protocol\":1,\"type\":\"run\",\"request_id\":\"" + UUID.randomUUID() + fixed;
        String last;
        try (SocketChannel ch = SocketChannel.open(socket)) {
          ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
          while (out.hasRemaining()) ch.write(out);
          last = untilExit(Channels.newInputStream(ch));
        }
        times.printf("%.3f%n", (System.nanoTime() - t0) / 1e6);
        if (!last.contains("\"t\":\"exit\"") || !last.contains("\"code\":0")) {
          failed++;
          if (failed <= 3) System.err.println("request " + i + " ended with: " + last);
        }
      }
    }
    System.out.printf("%d %d %d%n", count, failed, (System.nanoTime() - begin) / 1_000_000);
    System.exit(failed == 0 ? 0 : 1);
  }

  /** Reads frames until the exit frame; returns it, or the last frame when the connection ends first. */
  private static String untilExit(InputStream in) throws Exception {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    String last = "(no frame)";
    int b;
    while ((b = in.read()) >= 0) {
      if (b != '\n') {
        line.write(b);
        continue;
      }
      last = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (last.contains("\"t\":\"exit\"")) return last;
    }
    return last;
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    sb.append('"');
  }
}
EOF
have_javac=0
if [[ -x $java_home/bin/javac ]]; then have_javac=1; fi
have_batch=   # 1 when this build has `gq submit --batch`; see check_batch

# check_batch: sets have_batch, asking the current instance's daemon (which must be up: the help
# text comes from the daemon, and with none running the client would start one)
check_batch() {
  [[ -z $have_batch ]] || return 0
  have_batch=0
  if "$gq" submit --help 2>/dev/null | grep -q -- '--batch'; then have_batch=1; fi
}

# raw_requests COUNT TIMES_FILE GQ_ARG...: prints "count failed total_ms"
raw_requests() {
  local count=$1 times=$2
  shift 2
  "$java" -XX:+UseSerialGC "$raw_client_src" "$GQ_RUNTIME_DIR/gq.sock" "$count" "$times" "$work" "$@"
}

# ---- the 1,000-job history ----------------------------------------------------------------------
# Starts the "hist" instance's daemon with HISTORY finished jobs (made once per run).
ensure_history() {
  use_instance hist 4
  if [[ -n $(daemon_pid) ]]; then return 0; fi
  if [[ -d $GQ_DATA_DIR ]]; then start_daemon; return 0; fi
  say "making a history of $HISTORY finished jobs (0-GPU 'true' jobs) ..."
  start_daemon
  check_batch
  local t0 t1 t2 out
  t0=$(now_us)
  if ((have_batch)); then
    # one bulk call, as a user would queue many jobs
    awk -v n="$HISTORY" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/history.batch"
    out=$("$gq" submit -g 0 --batch "$work/history.batch" 2>&1) || die "submitting the history failed: $out"
  elif ((have_javac)); then
    out=$(raw_requests "$HISTORY" "$work/res/submit_raw" run -g 0 true) ||
      die "submitting the history failed: $out"
  else
    # neither: the real client, two at a time
    # shellcheck disable=SC2016 # $0 is for the inner sh
    seq "$HISTORY" | xargs -P 2 -n 1 sh -c 'exec "$0" -g 0 true >/dev/null 2>&1' "$gq" ||
      die "submitting the history failed"
  fi
  t1=$(now_us)
  local limit=$((600 + HISTORY / 10))
  wait_no_live_jobs "$limit" || { diagnose; die "the $HISTORY history jobs did not all finish within $limit s"; }
  t2=$(now_us)
  local ms_submit ms_all
  ms_submit=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.0f", d / 1000 }')
  ms_all=$(awk -v d=$((t2 - t0)) 'BEGIN { printf "%.0f", d / 1000 }')
  if ((have_batch)); then
    if ((HISTORY == 1000)); then
      row1 "gq submit -g 0 --batch, 1000 jobs, queue running (the history), whole CLI process" "$ms_submit" ms "<= 2000" "$(verdict "$ms_submit" 2000)"
    else
      row1 "gq submit -g 0 --batch, $HISTORY jobs, queue running (the history), whole CLI process" "$ms_submit" ms "2000 for 1,000 jobs" "-"
    fi
  elif [[ -s $work/res/submit_raw ]]; then
    row "$HISTORY submit requests, one after another from one JVM (no client start): time per request" \
      "$work/res/submit_raw" ms "-" "-"
    row1 "$HISTORY submit requests from one JVM: total (this build has no bulk submit)" "$ms_submit" ms "-" "-"
  fi
  row1 "$HISTORY 0-GPU 'true' jobs: from the submit until the daemon reports none live" "$ms_all" ms "-" "-"
  check_history_read_side
  say "  history ready: $(du -h "$GQ_DATA_DIR/gq.db" | cut -f1) database"
}

# The job history (read side) must show every job the daemon has finished as finished.
check_history_read_side() {
  local json done_n live_n
  json=$("$gq" ps --all --json)
  done_n=$(grep -c '"state": *"DONE"' <<<"$json" || true)
  live_n=$(grep -cE '"state": *"(WAITING|STARTING|RUNNING|CANCELLING)"' <<<"$json" || true)
  if ((live_n > 0)); then
    note "after all $HISTORY history jobs had ended (\`gq daemon status\`: 0 running, 0 waiting), \`gq ps --all\` still showed $live_n of them as live and $done_n as DONE: the job history missed events (daemon log: $(grep -c 'cannot update the job history' "$GQ_DATA_DIR/gq-daemon.log" || true) 'cannot update the job history' errors)."
  fi
}

# ---- the parts ------------------------------------------------------------------------------------

part_ps() {
  say "== ps: gq ps with $HISTORY jobs in history"
  # what any client run costs before it talks to a daemon
  measure jvm "$RUNS" 0 "$java" "${gq_client_flags[@]}" -version
  row "JVM start alone: java -version with the client's flags" "$work/res/jvm" ms "-" "-"
  use_instance nodaemon 1
  measure nodaemon "$RUNS" 1 "$gq" daemon status
  row "bin/gq daemon status, no daemon running (launcher + client JVM, no daemon)" "$work/res/nodaemon" ms "-" "-"

  ensure_history
  measure status "$RUNS" 0 "$gq" daemon status
  row "bin/gq daemon status, daemon up" "$work/res/status" ms "-" "-"
  measure ps "$RUNS" 0 "$gq" ps
  local m
  m=$(median_of "$work/res/ps")
  row "bin/gq ps, daemon up, $HISTORY jobs in history" "$work/res/ps" ms "median <= 100" "$(verdict "$m" 100)"

  # the installed client (install.sh), which adds an AOT cache on JDK 25+
  if (cd "$snapshot" && timeout 300 ./install.sh --no-build --prefix "$work/install" >"$work/install.log" 2>&1); then
    if [[ -f $work/install/lib/gq/client/gq-client.aot ]]; then
      measure ps_aot "$RUNS" 0 "$work/install/bin/gq" ps
      m=$(median_of "$work/res/ps_aot")
      row "gq ps as installed by install.sh (client AOT cache), same daemon" "$work/res/ps_aot" ms "median <= 100" "$(verdict "$m" 100)"
    else
      note "install.sh made no client AOT cache (JDK older than 25?); the installed-client row is left out"
    fi
  else
    note "install.sh --no-build into a temporary prefix failed; see its output: $(tail -3 "$work/install.log" | tr '\n' ' ')"
  fi

  measure ps_all 10 0 "$gq" ps --all
  row "bin/gq ps --all ($(grep -c . <<<"$("$gq" ps --all 2>/dev/null)") lines of output)" "$work/res/ps_all" ms "-" "-"

  # the daemon's share: the same request from a JVM that is already running
  if ((have_javac)); then
    raw_requests $((RUNS * 3)) "$work/res/ps_raw" ps >/dev/null || die "raw ps requests failed"
    row "ps request served by the daemon (connect .. exit frame, from a running JVM)" "$work/res/ps_raw" ms "-" "-"
  fi
}

part_submit() {
  say "== submit: gq -g 0 true"
  ensure_history
  measure submit "$RUNS" 0 "$gq" -g 0 true
  row "bin/gq -g 0 true (submit), daemon up" "$work/res/submit" ms "-" "-"
  if ((have_javac)); then
    raw_requests "$RUNS" "$work/res/submit_raw2" run -g 0 true >/dev/null || die "raw submit requests failed"
    row "submit request served by the daemon (connect .. exit frame, from a running JVM)" "$work/res/submit_raw2" ms "-" "-"
  fi
  wait_no_live_jobs 120 || note "the submitted 'true' jobs had not all ended 120 s later"
  check_batch
  if ((have_batch)); then
    # the bulk call alone: on a paused queue nothing starts, so only the submit is timed
    use_instance bulk 4
    start_daemon
    "$gq" daemon pause >/dev/null 2>&1 || die "gq daemon pause failed"
    awk 'BEGIN { for (i = 0; i < 1000; i++) print "true" }' >"$work/bulk.batch"
    local WARMUP=1
    measure bulk 5 0 "$gq" submit -g 0 --batch "$work/bulk.batch"
    local m
    m=$(median_of "$work/res/bulk")
    row "gq submit -g 0 --batch, 1000 jobs, queue paused (after 1 warm-up call: 1,000 to 5,000 already waiting), whole CLI process" "$work/res/bulk" ms "<= 2000" "$(verdict "$m" 2000)"
    stop_daemon
  else
    note "this build has no bulk submit (gq submit --batch): the 1,000-jobs-in-one-call budget is not measured"
  fi
}

part_handoff() {
  say "== handoff: a job's exit to the next waiting job's start, 1 GPU, $HANDOFF_JOBS jobs"
  use_instance handoff 1
  start_daemon
  local stamps=$work/stamps gate=$work/gate i
  mkdir -p "$stamps"
  # a gate job holds the GPU until all the others wait; each job stamps its first and last moment
  # shellcheck disable=SC2016 # the job's sh expands these
  "$gq" -g 1 --name gate sh -c \
    'i=0; while [ ! -e "$0" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; date +%s%N >"$1/$GQ_JOB_ID.end"' \
    "$gate" "$stamps" >/dev/null 2>&1 || die "submitting the gate job failed"
  for ((i = 0; i < HANDOFF_JOBS; i++)); do
    # shellcheck disable=SC2016 # the job's sh expands these
    "$gq" -g 1 --name step sh -c 'date +%s%N >"$0/$GQ_JOB_ID.start"; date +%s%N >"$0/$GQ_JOB_ID.end"' \
      "$stamps" >/dev/null 2>&1 || die "submitting handoff job $i failed"
  done
  touch "$gate"
  wait_no_live_jobs 180 || { diagnose; die "the handoff jobs did not finish within 3 minutes"; }
  local json=$work/handoff.json
  "$gq" ps --all --json >"$json"
  # id, start, end, gpu indices (one line a job) from the pretty or compact JSON
  tr ',' '\n' <"$json" | awk '
    /"id": *[0-9]+/ { if (id != "") print id, st, en; gsub(/[^0-9]/, ""); id = $0; st = en = "null" }
    /"start_time":/ { st = $0; sub(/.*"start_time": */, "", st); gsub(/[" \]}]/, "", st) }
    /"end_time":/ { en = $0; sub(/.*"end_time": */, "", en); gsub(/[" \]}]/, "", en) }
    END { if (id != "") print id, st, en }' | sort -n >"$work/handoff.tsv"
  local n
  n=$(wc -l <"$work/handoff.tsv")
  ((n == HANDOFF_JOBS + 1)) || die "expected $((HANDOFF_JOBS + 1)) jobs in gq ps --all, found $n"
  local missing
  missing=$(awk '$2 == "null" || $3 == "null" { printf "%s%s", sep, $1; sep = ", " }' "$work/handoff.tsv")
  if [[ -n $missing ]]; then
    note "handoff: after every job had ended (\`gq daemon status\`: 0 running, 0 waiting), \`gq ps --all --json\` had no start or end time for job(s) $missing (shown as $(awk '$2 == "null" || $3 == "null" { print $1 }' "$work/handoff.tsv" | while read -r j; do "$gq" show "$j" --json | sed -n 's/^ *"state": *"\([A-Z]*\)".*/\1/p'; done | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep = ", "}')); the pairs around them are left out"
  fi
  # ISO times to ns, all in one date call; a job without both times keeps its id with "-"
  awk '{ if ($2 == "null" || $3 == "null") print "-", "-"; else print $2, $3 }' "$work/handoff.tsv" |
    while read -r st en; do
      if [[ $st == - ]]; then echo "- -"; else printf '%s %s\n' "$(date -d "$st" +%s%N)" "$(date -d "$en" +%s%N)"; fi
    done >"$work/handoff.ns"
  paste -d' ' <(awk '{print $1}' "$work/handoff.tsv") "$work/handoff.ns" >"$work/handoff.rows"
  : >"$work/res/handoff_daemon"
  : >"$work/res/handoff_job"
  : >"$work/res/handoff_detect"
  : >"$work/res/handoff_launch"
  local prev_id="" prev_end="" id start end js je
  while read -r id start end; do
    if [[ $start == - || ! -s $stamps/$id.end || ($id != 1 && ! -s $stamps/$id.start) ]]; then
      prev_id=""
      continue
    fi
    if [[ -n $prev_id ]]; then
      echo $(((start - prev_end) / 1000)) | awk '{printf "%.3f\n", $1 / 1000}' >>"$work/res/handoff_daemon"
      js=$(<"$stamps/$id.start")
      je=$(<"$stamps/$prev_id.end")
      echo $(((js - je) / 1000)) | awk '{printf "%.3f\n", $1 / 1000}' >>"$work/res/handoff_job"
      echo $(((js - start) / 1000)) | awk '{printf "%.3f\n", $1 / 1000}' >>"$work/res/handoff_launch"
    fi
    je=$(<"$stamps/$id.end")
    echo $(((end - je) / 1000)) | awk '{printf "%.3f\n", $1 / 1000}' >>"$work/res/handoff_detect"
    prev_id=$id prev_end=$end
  done <"$work/handoff.rows"
  local m
  m=$(median_of "$work/res/handoff_daemon")
  row "exit to next start, daemon's times: start_time(next) - end_time(previous)" \
    "$work/res/handoff_daemon" ms "median <= 50" "$(verdict "$m" 50)"
  m=$(median_of "$work/res/handoff_job")
  row "exit to next start, as the jobs see it: next job's first moment - previous job's last moment" \
    "$work/res/handoff_job" ms "median <= 50" "$(verdict "$m" 50)"
  row "  of which: job's last moment -> daemon's end_time (exit noticed)" "$work/res/handoff_detect" ms "-" "-"
  row "  of which: daemon's start_time -> job's first moment (launch)" "$work/res/handoff_launch" ms "-" "-"
  stop_daemon
}

# cold_starts NAME: READY_STARTS cold starts of the current instance (after one unmeasured start)
cold_starts() {
  local key=$1 i t0 t1 t2 deadline
  : >"$work/res/${key}_start"
  : >"$work/res/${key}_status"
  stop_daemon
  local log=$GQ_DATA_DIR/gq-daemon.log lines
  for ((i = 0; i <= READY_STARTS; i++)); do
    lines=0
    if [[ -f $log ]]; then lines=$(wc -l <"$log"); fi
    t0=$(now_us)
    start_daemon
    t1=$(now_us)
    deadline=$((SECONDS + 60))
    until "$gq" daemon status >/dev/null 2>&1; do
      ((SECONDS < deadline)) || die "gq daemon status did not answer within 60 s of a start"
      sleep 0.02
    done
    t2=$(now_us)
    if ((i > 0)); then
      awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }' >>"$work/res/${key}_start"
      awk -v d=$((t2 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }' >>"$work/res/${key}_status"
      tail -n +$((lines + 1)) "$log" | start_stages "$key" "$t0"
    fi
    stop_daemon
  done
  say "  $key: status answers after $(stats "$work/res/${key}_status" | awk '{printf "median %s ms (min %s, max %s)", $2, $5, $6}')"
}

# start_stages KEY T0_US < new daemon log lines: the daemon's start-up stages, from the times of
# its log lines (ms, UTC), into $work/res/KEY_stage_*; nothing when the lines are not there
start_stages() {
  local t0_ms=$(($2 / 1000)) text pat stamp
  local -a ms=()
  text=$(cat)
  for pat in 'starting gq daemon' 'actor system up' 'job history up to date' 'scheduler recovered' 'gq daemon ready'; do
    stamp=$(grep -m1 -F "$pat" <<<"$text" | cut -d' ' -f1) || return 0
    [[ -n $stamp ]] || return 0
    ms+=("$(date -d "$stamp" +%s%3N 2>/dev/null)") || return 0
  done
  echo $((ms[0] - t0_ms)) >>"$work/res/$1_stage_1_launch"
  echo $((ms[1] - ms[0])) >>"$work/res/$1_stage_2_actors"
  echo $((ms[2] - ms[1])) >>"$work/res/$1_stage_3_history"
  echo $((ms[3] - ms[2])) >>"$work/res/$1_stage_4_replay"
  echo $((ms[4] - ms[3])) >>"$work/res/$1_stage_5_serve"
}

stage_rows() {
  local key=$1 what=$2 f
  local -A names=([1_launch]="start invoked -> daemon's first log line (client, launcher, daemon JVM, logging)"
    [2_actors]="-> actor system up (config, Pekko, persistence)"
    [3_history]="-> job history caught up with the journal"
    [4_replay]="-> scheduler replayed and reconciled"
    [5_serve]="-> ready (socket served)")
  for f in "$work/res/${key}_stage_"*; do
    [[ -s $f ]] || continue
    row "  of which ($what): ${names[${f##*_stage_}]}" "$f" ms "-" "-"
  done
}

part_ready() {
  say "== ready: gq daemon start until gq daemon status answers, $READY_STARTS cold starts each"
  use_instance empty 4
  cold_starts ready_empty
  local m
  row "gq daemon start returns (daemon answered a ping), empty history" "$work/res/ready_empty_start" ms "-" "-"
  m=$(median_of "$work/res/ready_empty_status")
  row "ready, empty history: gq daemon start .. gq daemon status answers" "$work/res/ready_empty_status" ms \
    "median <= 3000" "$(verdict "$m" 3000)"
  stage_rows ready_empty "empty history"
  ensure_history
  local jobs
  jobs=$(grep -c '"id":' <<<"$("$gq" ps --all --json)" || true)
  cold_starts ready_hist
  row "gq daemon start returns (daemon answered a ping), $jobs jobs in history" "$work/res/ready_hist_start" ms "-" "-"
  m=$(median_of "$work/res/ready_hist_status")
  local v
  v=$(verdict "$m" 3000)
  row "ready, $jobs jobs in history: gq daemon start .. gq daemon status answers" "$work/res/ready_hist_status" ms \
    "median <= 3000 with 100,000 jobs" "$v at $jobs jobs; 100,000 not measured"
  stage_rows ready_hist "$jobs jobs"
}

# idle_measure LABEL PID: RSS after IDLE_SETTLE s, CPU over the next IDLE_SECONDS s
idle_measure() {
  local label=$1 pid=$2 tck rss hwm threads a b t0 t1 cpu
  tck=$(getconf CLK_TCK)
  say "  $label: settling $IDLE_SETTLE s, then $IDLE_SECONDS s of CPU accounting"
  sleep "$IDLE_SETTLE"
  rss=$(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
  hwm=$(awk '/^VmHWM:/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")
  # utime + stime: fields 14 and 15, counted after the ')' that ends the command name
  a=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
  t0=$(now_us)
  sleep "$IDLE_SECONDS"
  b=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
  t1=$(now_us)
  cpu=$(awk -v d=$((b - a)) -v hz="$tck" -v us=$((t1 - t0)) 'BEGIN { printf "%.2f", 100 * (d / hz) / (us / 1e6) }')
  row1 "idle RSS (VmRSS after $IDLE_SETTLE s idle), $label" "$rss" MiB "<= 150" "$(verdict "$rss" 150)"
  row1 "idle CPU over $IDLE_SECONDS s (% of one core), $label" "$cpu" "%" "<= 1" "$(verdict "$cpu" 1)"
  note "daemon $label: VmHWM (peak RSS) $hwm MiB, $threads threads, $((b - a)) CPU ticks of 1/$tck s in $IDLE_SECONDS s (GQ_POLL_INTERVAL_MS ${GQ_POLL_INTERVAL_MS:-default 1000})"
}

part_idle() {
  say "== idle: the daemon's memory and CPU when nothing happens"
  local pid
  if [[ $part == all && -d $work/inst/hist ]]; then
    use_instance hist 4
    pid=$(daemon_pid)
    if [[ -z $pid ]]; then
      start_daemon
      pid=$started_pid
    fi
    idle_measure "after the ps and submit parts ($(grep -c '"id":' <<<"$("$gq" ps --all --json)" || true) jobs in history)" "$pid"
    stop_daemon
  fi
  use_instance idle 4
  start_daemon
  idle_measure "freshly started, empty history" "$started_pid"
  stop_daemon
}

# ---- report ---------------------------------------------------------------------------------------

machine_desc() {
  local model mem
  model=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
  mem=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
  echo "$(nproc) CPUs ($model), $mem RAM, Linux $(uname -r)"
}

print_table() {
  {
    printf 'MEASURE\tN\tMEDIAN\tP90\tP95\tMIN\tMAX\tUNIT\tBUDGET\tVERDICT\n'
    cat "$rows"
  } | column -t -s $'\t'
}

markdown_section() {
  local load_end
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "<!-- bench:begin -->"
  echo "_Generated by \`bench/run.sh $part\` on $run_date; rerun it to refresh everything between these markers._"
  echo
  echo "- Machine: $(machine_desc)"
  echo "- Load average (1, 5, 15 min): $load_start at the start, $load_end at the end"
  echo "- JDK: $jdk_desc ($java_home); client flags: \`${gq_client_flags[*]}\`"
  echo "- Timer: $timer"
  echo "- Command: \`cd $root && bench/run.sh $part\` with BENCH_RUNS=$RUNS, BENCH_HISTORY=$HISTORY, BENCH_HANDOFF_JOBS=$HANDOFF_JOBS, BENCH_READY_STARTS=$READY_STARTS, BENCH_IDLE_SETTLE=$IDLE_SETTLE, BENCH_IDLE_SECONDS=$IDLE_SECONDS${BENCH_QUIET_LOAD:+, BENCH_QUIET_LOAD=$BENCH_QUIET_LOAD}"
  echo "- gq: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$root" && [[ -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]] && echo ' with uncommitted changes'), fake GPUs, poll interval ${GQ_POLL_INTERVAL_MS:-1000} ms, daemon flags from bin/gq-daemon"
  echo
  echo "| Measure | n | median | p90 | p95 | min | max | unit | budget | verdict |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$rows"
  if [[ -s $notes ]]; then
    echo
    echo "Observations of this run:"
    echo
    sed 's/^/- /' "$notes"
  fi
  if [[ -s $work/breakdown.txt ]]; then
    echo
    echo "Where the time of \`gq ps\` goes (medians of this run):"
    echo
    sed 's/^/- /' "$work/breakdown.txt"
  fi
  echo "<!-- bench:end -->"
}

breakdown() {
  [[ -s $work/res/ps && -s $work/res/jvm && -s $work/res/nodaemon ]] || return 0
  local ps jvm nod raw
  ps=$(median_of "$work/res/ps")
  jvm=$(median_of "$work/res/jvm")
  nod=$(median_of "$work/res/nodaemon")
  raw=$([[ -s $work/res/ps_raw ]] && median_of "$work/res/ps_raw" || echo "")
  {
    echo "gq ps as a whole: $ps ms"
    awk -v a="$jvm" -v t="$ps" 'BEGIN { printf "a JVM with the client flags that only starts and exits (java -version): %.0f ms, %.0f%% of it\n", a, 100 * a / t }'
    awk -v a="$nod" -v t="$ps" 'BEGIN { printf "the launcher and the client up to finding no daemon (gq daemon status, no daemon): %.0f ms, %.0f%% of it\n", a, 100 * a / t }'
    if [[ -n $raw ]]; then
      awk -v a="$raw" -v t="$ps" 'BEGIN { printf "the daemon serving the ps request to a JVM that is already running: %.1f ms, %.0f%% of it\n", a, 100 * a / t }'
    fi
    echo "(medians of separate series: on a loaded machine they need not add up)"
  } >"$work/breakdown.txt"
}

write_doc() {
  local section=$work/section.md tmp
  markdown_section >"$section"
  if [[ ! -f $DOC ]]; then
    mkdir -p "$(dirname "$DOC")"
    printf '# Benchmarks\n\n<!-- bench:begin -->\n<!-- bench:end -->\n' >"$DOC"
  fi
  grep -q '<!-- bench:begin -->' "$DOC" && grep -q '<!-- bench:end -->' "$DOC" ||
    printf '\n<!-- bench:begin -->\n<!-- bench:end -->\n' >>"$DOC"
  tmp=$(mktemp "$DOC.XXXXXX")
  awk -v f="$section" '
    /<!-- bench:begin -->/ { while ((getline l < f) > 0) print l; skip = 1; next }
    /<!-- bench:end -->/ { skip = 0; next }
    !skip { print }' "$DOC" >"$tmp"
  chmod 0644 "$tmp"
  mv "$tmp" "$DOC"
  say "wrote the results into ${DOC#"$root"/}"
}

# ---- main -----------------------------------------------------------------------------------------
snapshot_build
gq=$snapshot/bin/gq
if [[ -n ${BENCH_QUIET_LOAD-} ]]; then
  quiet_until=$((SECONDS + ${BENCH_QUIET_WAIT:-600}))
  until awk -v l="$BENCH_QUIET_LOAD" '{ exit !($1 < l) }' /proc/loadavg; do
    if ((SECONDS >= quiet_until)); then
      note "the 1-minute load average stayed at or above $BENCH_QUIET_LOAD for ${BENCH_QUIET_WAIT:-600} s; measured anyway"
      break
    fi
    say "waiting for the load average ($(cut -d' ' -f1 /proc/loadavg)) to drop below $BENCH_QUIET_LOAD ..."
    sleep 15
  done
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
run_date=$(date -u '+%Y-%m-%d %H:%M UTC')
say "gq benchmark: $part on $(machine_desc)"
say "JDK: $jdk_desc; timer: $timer"
say "temporary directory: $work"
if ((!have_javac)); then note "no javac next to $java: the history is made with the real client (slower) and the daemon-side rows are left out"; fi

case $part in
  ps) part_ps ;;
  submit) part_submit ;;
  handoff) part_handoff ;;
  ready) part_ready ;;
  idle) part_idle ;;
  all)
    part_ps
    part_submit
    part_idle
    part_handoff
    part_ready
    ;;
esac
breakdown

echo
echo "gq benchmark ($part), $run_date, $(machine_desc)"
echo "JDK: $jdk_desc; timer: $timer"
print_table
if [[ -s $notes ]]; then
  echo
  sed 's/^/note: /' "$notes"
fi
if [[ -s $work/breakdown.txt ]]; then
  echo
  sed 's/^/gq ps: /' "$work/breakdown.txt"
fi
if [[ $part == all ]]; then write_doc; fi
