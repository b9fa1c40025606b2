# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/daemon.sh (sourced by bench/run.sh): the build snapshot, gq instances on fake GPUs,
# their daemons, a raw protocol client, and reading job times from `gq ps --all --json`.

# A private copy of the built checkout (same layout: bin/, */target/, pom.xml), so that a rebuild
# while the benchmark runs cannot change or break the jars under a starting daemon.
snapshot_build() {
  local snap=$work/checkout before after f
  local files=(bin/gq bin/gq-daemon bin/gq-jdk.sh install.sh pom.xml client/target/gq actors/target/gq-daemon.jar
    host/target/gq-shim)
  for _ in 1 2 3 4 5; do
    rm -rf "$snap"
    mkdir -p "$snap/bin" "$snap/client/target" "$snap/actors/target/lib" "$snap/host/target"
    before=$(cd "$root" && stat -c '%n %s %Y' "${files[@]}" actors/target/lib/*.jar)
    for f in "${files[@]}"; do cp -p "$root/$f" "$snap/$f"; done
    cp -p "$root"/actors/target/lib/*.jar "$snap/actors/target/lib/"
    if [[ -d $root/actors/target/sqlite ]]; then cp -pR "$root/actors/target/sqlite" "$snap/actors/target/"; fi
    after=$(cd "$root" && stat -c '%n %s %Y' "${files[@]}" actors/target/lib/*.jar)
    if [[ $before == "$after" ]]; then
      snapshot=$snap
      # the daemon's AOT cache records its jars' paths: made again for the copy (the client is native)
      # the daemon's AOT cache, as install.sh makes it (bin/gq-daemon --train; JDK 25+, ~20 s)
      if ((java_version >= 25)) && [[ -z ${BENCH_NO_DAEMON_AOT-} && $part != smoke ]]; then
        say "making the daemon's AOT cache for the build's copy (bin/gq-daemon --train) ..."
        "$snap/bin/gq-daemon" --train >"$work/train.log" 2>&1 ||
          note "bin/gq-daemon --train failed, the daemon runs without its AOT cache: $(tail -3 "$work/train.log" | tr '\n' ' ')"
      fi
      return 0
    fi
    say "the build changed while it was copied (a rebuild is running?); trying again in 20 s"
    sleep 20
  done
  die "the build kept changing while it was copied; run the benchmark when no build is running"
}

# use_instance NAME GPUS: points GQ_DATA_DIR, GQ_RUNTIME_DIR and GQ_FAKE_NVML at instance NAME,
# made with GPUS fake GPUs on first use. In the smoke run every part shares one 4-GPU instance.
use_instance() {
  local name=$1 gpus=$2 i
  if ((shared_instance)); then name=smoke gpus=4; fi
  local dir=$work/inst/$name
  if [[ ! -d $dir ]]; then
    mkdir -p "$dir/fake/procs"
    for ((i = 0; i < gpus; i++)); do
      echo "$i GPU-bench-$name-$i 81559 Fake Bench GPU" >>"$dir/fake/gpus"
      mkdir -p "$dir/fake/procs/GPU-bench-$name-$i"
    done
  fi
  instance_gpus=$(grep -c . "$dir/fake/gpus")
  export GQ_DATA_DIR=$dir/data GQ_RUNTIME_DIR=$dir/run GQ_FAKE_NVML=$dir/fake
}

# the pid of the current instance's daemon, or nothing
daemon_pid() {
  local out
  out=$("$gq" daemon status 2>/dev/null) || return 0
  [[ $out =~ \(pid\ ([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
  return 0
}

# starts the current instance's daemon (or finds it running); sets started_pid
start_daemon() {
  local out deadline pid
  pid=$(daemon_pid)
  if [[ -n $pid ]]; then
    started_pid=$pid
    return 0
  fi
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

# stop_daemon [force]: stops the current instance's daemon (the smoke run keeps its one daemon
# up unless forced)
stop_daemon() {
  if ((shared_instance)) && [[ ${1-} != force ]]; then return 0; fi
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

# stop_run_daemons: stops every gq daemon of this run that is still up, with a note (before a
# peer's part: the peers are measured with none of gq's daemons running)
stop_run_daemons() {
  local inst name
  for inst in "$work"/inst/*/; do
    [[ -d $inst ]] || continue
    name=${inst%/}
    name=${name##*/}
    if GQ_DATA_DIR=${inst}data GQ_RUNTIME_DIR=${inst}run "$gq" daemon status >/dev/null 2>&1; then
      note "the gq daemon of this run's $name instance was still up before a peer's part: stopped first"
      (
        use_instance "$name" 1
        stop_daemon force
      )
    fi
  done
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
    sleep 0.2
  done
  return 1
}

# job_id TEXT: the first job id in a submit's output ("Submitted job 12")
job_id() { grep -o '[0-9][0-9]*' <<<"$1" | head -1; }

# job_times OUT [gq ps ARGS...]: "id state submit_ns start_ns end_ns" a line, by id, from
# `gq ps --all --json`; a time the daemon has not set is 0
job_times() {
  local out=$1
  shift
  "$gq" ps --all --json "$@" >"$out.json" || die "gq ps --all --json failed"
  tr ',' '\n' <"$out.json" | awk '
    function val(s) { sub(/^[^:]*: */, "", s); gsub(/[" \]}\[]/, "", s); return s == "null" || s == "" ? "@0" : s }
    /"id": *[0-9]+/ { if (id != "") print id, st, sub_t, start, end; s = $0; gsub(/[^0-9]/, "", s); id = s; st = "?"; sub_t = start = end = "@0" }
    /"state":/ { st = val($0) }
    /"submit_time":/ { sub_t = val($0) }
    /"start_time":/ { start = val($0) }
    /"end_time":/ { end = val($0) }
    END { if (id != "") print id, st, sub_t, start, end }' | sort -n >"$out.iso"
  # all the times to ns in one date process per column
  paste -d' ' <(cut -d' ' -f1,2 "$out.iso") \
    <(cut -d' ' -f3 "$out.iso" | date -f - +%s%N) \
    <(cut -d' ' -f4 "$out.iso" | date -f - +%s%N) \
    <(cut -d' ' -f5 "$out.iso" | date -f - +%s%N) >"$out"
}

# ---- a raw protocol client: many requests from one JVM -------------------------------------------
# bench/lib/RawRequests.java sends gq requests over the socket as bin/gq would, one connection
# each, and records the time of each request (connect .. exit frame). Used to fill the history
# when a build has no bulk submit, and to separate the daemon's share of a command's time from the
# client JVM's start.
have_batch=   # 1 when this build has `gq submit --batch`; see check_batch

# check_batch: sets have_batch, asking the current instance's daemon (which must be up: the help
# text comes from the daemon, and with none running the client would start one)
check_batch() {
  [[ -z $have_batch ]] || return 0
  have_batch=0
  if "$gq" submit --help 2>/dev/null | grep -q -- '--batch'; then have_batch=1; fi
}

# raw_requests COUNT TIMES_FILE GQ_ARG...: prints "count failed total_ms" (compiled on first use)
raw_requests() {
  local count=$1 times=$2
  shift 2
  if [[ ! -f $work/raw/RawRequests.class ]]; then
    "$java_home/bin/javac" -d "$work/raw" "$here/lib/RawRequests.java" || die "compiling bench/lib/RawRequests.java failed"
  fi
  local protocol
  protocol=$("$gq" daemon status 2>/dev/null | sed -n 's/.*, protocol \([0-9][0-9]*\)).*/\1/p')
  GQ_BENCH_PROTOCOL=${protocol:-2} "$java" -XX:+UseSerialGC -cp "$work/raw" RawRequests "$GQ_RUNTIME_DIR/gq.sock" "$count" "$times" "$work" "$@"
}

# history_count: how many jobs the current daemon knows, live and ended
history_count() { "$gq" ps --all --json | grep -c '"id":' || true; }
