#!/usr/bin/env bash
# bench/gpu-check.sh: checks gq against real NVIDIA GPUs on a machine that has no JDK.
#
#   bench/gpu-check.sh pack   in the source checkout, after the build: makes bench/out/gpu-check/
#                             (a small Java runtime made with jlink, the gq jars, the job shim,
#                             the launcher scripts and this script) and bench/out/gpu-check.tar.gz
#   ./gpu-check.sh run        on the GPU machine, inside the unpacked folder: runs the checks
#
# The checks (each prints PASS or FAIL; the exit status is 1 when any failed):
#   (a) dev.gq.nvml.GpuList lists the GPUs by UUID (and the same ones as nvidia-smi, if present),
#       with each GPU's utilisation, temperature and power, and its health (critical Xid events
#       from an NVML event set, uncorrectable ECC errors, retired pages pending, row remap failures)
#   (b) a gq daemon on temporary directories, without GQ_FAKE_NVML, shows them in `gq gpu`, each
#       with its utilisation in `gq gpu --json` and none drained as unwell
#   (c) a process outside gq that opens a CUDA context (python3 + torch) turns its GPU EXTERNAL
#   (d) a job that needs that GPU stays WAITING while the outside process lives, then runs
#   (e) the daemon stops
# Every wait is bounded; the whole run takes about a minute.
#
# Environment for `run`: JAVA_HOME (default: the bundled runtime), GPU_CHECK_PYTHON (default
# python3: an interpreter with a CUDA build of torch), GPU_CHECK_KEEP=1 (keep the temporary
# directory), GQ_CHECK_FAKE=1 (no GPU needed: fake GPUs and a fake outside process, to try the
# script itself). For `pack`: GPU_CHECK_DESKTOP=1 keeps java.desktop in the runtime.
set -euo pipefail

mode=${1-}
self=$(readlink -f -- "${BASH_SOURCE[0]}")
here=${self%/*}

usage() { echo "usage: gpu-check.sh pack | run   (see the top of this file)"; }
die() { echo "gpu-check: $*" >&2; exit 1; }

# ================================================================================================
# pack: runs in the source checkout
# ================================================================================================
pack() {
  local root=${here%/*}
  [[ -f $root/pom.xml && -f $root/bin/gq-jdk.sh ]] || die "pack runs from bench/ of a gq source checkout"
  local build_cmd="cd $root && ./mvnw -q -B package -DskipTests"
  local f
  for f in client/target/gq actors/target/gq-daemon.jar host/target/gq-shim; do
    [[ -f $root/$f ]] || die "$f is missing: build gq first: $build_cmd"
  done
  compgen -G "$root/actors/target/lib/*.jar" >/dev/null || die "actors/target/lib is empty: build gq first: $build_cmd"

  # shellcheck source-path=SCRIPTDIR/.. source=bin/gq-jdk.sh
  . "$root/bin/gq-jdk.sh"
  gq_find_java
  local jdk=${java%/bin/java}
  [[ -x $jdk/bin/jlink && -x $jdk/bin/jdeps ]] || die "$jdk has no jlink/jdeps: set JAVA_HOME to a full JDK (25)"
  ((java_version >= 25)) || echo "note: packing with JDK $java_version; the brief asks for 25" >&2

  local out=$root/bench/out/gpu-check
  rm -rf "$out" "$out.tar.gz"
  mkdir -p "$out/lib/gq/bin" "$out/lib/gq/daemon"

  # the modules: what jdeps finds in every jar, plus what is only reached by reflection or
  # service loading (SQLite's JDBC driver, peer credentials of the socket, Unsafe, JNDI/JMX of
  # the connection pool, logback's XML)
  local jars=("$root/actors/target/gq-daemon.jar" "$root"/actors/target/lib/*.jar)
  echo "finding the JDK modules with jdeps ..."
  local found
  found=$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release "$java_version" \
    --class-path "$root/actors/target/lib/*" "${jars[@]}" 2>"$out/jdeps.err" | tail -1) ||
    die "jdeps failed: $(tail -5 "$out/jdeps.err")"
  rm -f "$out/jdeps.err"
  local mods dropped=""
  mods=$(tr ',' '\n' <<<"$found,jdk.net,java.sql,jdk.unsupported,java.naming,java.management,java.xml,java.logging" |
    sed '/^$/d' | sort -u)
  # java.desktop (about 12 MiB) is referenced only by optional code: Jackson's java.beans
  # annotations, Typesafe Config's bean factory, JNA's AWT helpers
  if [[ -z ${GPU_CHECK_DESKTOP-} ]] && grep -qx java.desktop <<<"$mods"; then
    mods=$(grep -vx java.desktop <<<"$mods")
    dropped=java.desktop
  fi
  mods=$(paste -sd, <<<"$mods")
  echo "jlink --add-modules $mods${dropped:+ (left out: $dropped)}"
  "$jdk/bin/jlink" --add-modules "$mods" --strip-debug --no-header-files --no-man-pages \
    --compress=zip-6 --output "$out/runtime"
  # linking from a JDK without jmods copies libjvm.so with its symbol table: drop it
  local stripped=no
  if command -v strip >/dev/null; then
    chmod u+w "$out/runtime/lib/server/libjvm.so"
    if strip --strip-unneeded "$out/runtime/lib/server/libjvm.so"; then stripped=yes; fi
  fi

  # the installed layout (as install.sh makes it, without the AOT cache, which only fits the JDK it
  # was made with): lib/gq/{bin,daemon,gq-shim}
  install -m 0755 "$root/bin/gq-daemon" "$out/lib/gq/bin/"
  # the command is the native client (static: it runs on the GPU machine as it is)
  install -m 0755 "$root/client/target/gq" "$out/lib/gq/bin/gq"
  install -m 0755 "$root/bin/gq" "$out/lib/gq/bin/gq-generic"
  install -m 0644 "$root/bin/gq-jdk.sh" "$out/lib/gq/bin/"
  install -m 0644 "$root/actors/target/gq-daemon.jar" "$root"/actors/target/lib/*.jar "$out/lib/gq/daemon/"
  install -m 0755 "$root/host/target/gq-shim" "$out/lib/gq/gq-shim"
  install -m 0755 "$self" "$out/gpu-check.sh"

  # the runtime and the shim only run on this architecture: drop the other platforms' native
  # libraries from the copies of sqlite-jdbc and JNA
  local arch sqlite_dir jna_dir trimmed=no
  arch=$(uname -m)
  case $arch in
    x86_64) sqlite_dir=Linux/x86_64 jna_dir=linux-x86-64 ;;
    aarch64) sqlite_dir=Linux/aarch64 jna_dir=linux-aarch64 ;;
    *) sqlite_dir="" jna_dir="" ;;
  esac
  if [[ -n $sqlite_dir ]] && command -v zip >/dev/null && command -v unzip >/dev/null; then
    trim_jar "$out"/lib/gq/daemon/sqlite-jdbc-*.jar '^org/sqlite/native/.+[^/]$' "^org/sqlite/native/$sqlite_dir/"
    trim_jar "$out"/lib/gq/daemon/jna-*.jar '^com/sun/jna/[^/]+/[^/]*(jnidispatch|\.a$)' "^com/sun/jna/$jna_dir/"
    trimmed=yes
  fi

  # does it run? the bundled java, and the gq command with it
  "$out/runtime/bin/java" -version >/dev/null 2>&1 || die "the bundled runtime does not start"
  local t
  t=$(mktemp -d /tmp/gq-pack.XXXXXX)
  local status
  status=$(JAVA_HOME=$out/runtime GQ_DATA_DIR=$t/d GQ_RUNTIME_DIR=$t/r "$out/lib/gq/bin/gq" daemon status 2>&1 || true)
  rm -rf "$t"
  [[ $status == "gq daemon is not running" ]] || die "the packed client does not run with the bundled runtime: $status"

  {
    echo "gq GPU check pack"
    echo "made:     $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -sm)"
    echo "gq:       $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$root" && [[ -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]] && echo ' with uncommitted changes')"
    echo "runtime:  $("$out/runtime/bin/java" -version 2>&1 | sed -n 2p)"
    echo "modules:  $mods${dropped:+ (left out: $dropped)}"
    echo "libjvm.so stripped: $stripped; other platforms' natives dropped from sqlite-jdbc and JNA: $trimmed"
    echo "run it:   ./gpu-check.sh run    (inside this folder, on an $arch Linux machine)"
  } >"$out/PACK-INFO.txt"

  tar -C "${out%/*}" -czf "$out.tar.gz" gpu-check
  echo
  echo "packed $out"
  echo "  total          $(du -sh "$out" | cut -f1)   (as .tar.gz: $(du -h "$out.tar.gz" | cut -f1))"
  echo "  runtime/       $(du -sh "$out/runtime" | cut -f1)  (libjvm.so $(du -h "$out/runtime/lib/server/libjvm.so" | cut -f1), modules $(du -h "$out/runtime/lib/modules" | cut -f1))"
  echo "  lib/gq/daemon/ $(du -sh "$out/lib/gq/daemon" | cut -f1)  ($(find "$out/lib/gq/daemon" -name '*.jar' | wc -l) jars)"
  echo "  biggest jars:"
  find "$out/lib/gq" -name '*.jar' -printf '%s %f\n' | sort -rn | head -8 |
    awk '{ printf "    %6.1f MiB  %s\n", $1 / 1048576, $2 }'
  echo "copy $out.tar.gz to the GPU machine, then: tar xzf gpu-check.tar.gz && cd gpu-check && ./gpu-check.sh run"
}

# trim_jar JAR DROP_REGEX KEEP_REGEX: deletes the entries matching DROP_REGEX but not KEEP_REGEX
trim_jar() {
  local jar=$1 drop=$2 keep=$3 list
  [[ -f $jar ]] || return 0
  list=$(unzip -Z1 "$jar" | grep -E "$drop" | grep -Ev "$keep" || true)
  [[ -n $list ]] || return 0
  # shellcheck disable=SC2086 # one entry a word; entry names have no spaces
  zip -q -d "$jar" $list
}

# ================================================================================================
# run: on the GPU machine, inside the packed folder
# ================================================================================================
passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }
info() { printf '      %s\n' "$*"; }
show() { sed 's/^/      | /'; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# gq ARGS...: the packed client, never waiting more than 60 s
gqc() { timeout 60 "$gq" "$@"; }

# gpu_rows: "uuid state pid,pid" per GPU from `gq gpu --json` (any JSON layout gq prints)
gpu_rows() {
  gqc gpu --json 2>/dev/null | tr ',' '\n' | awk '
    function flush() { if (uuid != "") print uuid, state, (pids == "" ? "-" : pids); uuid = state = pids = "" }
    /"index": *[0-9]+/ { flush() }
    /"uuid":/ { v = $0; sub(/.*"uuid": *"/, "", v); sub(/".*/, "", v); uuid = v }
    /"state":/ { v = $0; sub(/.*"state": *"/, "", v); sub(/".*/, "", v); state = v }
    /"pid": *[0-9]+/ { v = $0; sub(/.*"pid": */, "", v); gsub(/[^0-9]/, "", v); pids = (pids == "" ? v : pids "," v) }
    END { flush() }' || true
}

# job_field JOB FIELD: a top-level string or number field of `gq show JOB --json`
job_field() {
  gqc show "$1" --json 2>/dev/null | tr ',{}' '\n' |
    sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\"]*\)\"\{0,1\} *$/\1/p" | head -1 || true
}

outside_pid=""
daemon_pid=""
tmp=""

cleanup_run() {
  local rc=$? p pid
  trap - EXIT INT TERM
  if [[ -n $outside_pid ]] && kill -0 "$outside_pid" 2>/dev/null; then
    kill -TERM "$outside_pid" 2>/dev/null || true
    sleep 1
    kill -KILL "$outside_pid" 2>/dev/null || true
  fi
  if [[ -n $tmp ]]; then
    timeout 30 "$gq" daemon stop >/dev/null 2>&1 || true
    if [[ -n $daemon_pid ]]; then
      for _ in $(seq 75); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.2; done
      if kill -0 "$daemon_pid" 2>/dev/null; then
        echo "gpu-check: the daemon (pid $daemon_pid) is still running; sending SIGKILL" >&2
        kill -KILL "$daemon_pid" 2>/dev/null || true
      fi
    fi
    # jobs of this check that are still running: their environment names this check's directory
    for p in /proc/[0-9]*; do
      pid=${p#/proc/}
      [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
      if grep -qzF "GQ_DATA_DIR=$tmp/" "$p/environ" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
    done
    if ((failed > 0)) && [[ -f $tmp/data/gq-daemon.log ]]; then
      echo "last lines of the daemon log:"
      tail -25 "$tmp/data/gq-daemon.log" | show
    fi
    if [[ -n ${GPU_CHECK_KEEP-} ]]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
  fi
  exit "$rc"
}

run() {
  local pack=$here
  if [[ ! -d $pack/lib/gq ]]; then pack=$here/out/gpu-check; fi
  [[ -x $pack/lib/gq/bin/gq ]] || die "no packed gq next to this script: run 'bench/gpu-check.sh pack' in the source checkout first"
  export JAVA_HOME=${JAVA_HOME:-$pack/runtime}
  gq=$pack/lib/gq/bin/gq
  local lib=$pack/lib/gq/daemon
  local fake=${GQ_CHECK_FAKE-}
  local poll_ms=${GQ_POLL_INTERVAL_MS:-1000}

  tmp=$(mktemp -d /tmp/gq-gpu-check.XXXXXX)
  trap cleanup_run EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  export GQ_DATA_DIR=$tmp/data GQ_RUNTIME_DIR=$tmp/run
  export GQ_DAEMON_CMD=$pack/lib/gq/bin/gq-daemon
  if [[ -n $fake ]]; then
    export GQ_FAKE_NVML=$tmp/fake
    mkdir -p "$GQ_FAKE_NVML/procs/GPU-check-fake-0"
    echo "0 GPU-check-fake-0 143771 Fake H200 (GQ_CHECK_FAKE)" >"$GQ_FAKE_NVML/gpus"
    mkdir -p "$GQ_FAKE_NVML/figures"
    echo "util=0 mem_util=0 temp=35 power=80 power_limit=700" >"$GQ_FAKE_NVML/figures/GPU-check-fake-0"
  else
    unset GQ_FAKE_NVML
  fi

  echo "gq GPU check, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -nrm)"
  [[ -f $pack/PACK-INFO.txt ]] && show <"$pack/PACK-INFO.txt"
  if [[ -n $fake ]]; then
    echo "GQ_CHECK_FAKE=1: fake GPUs and a fake outside process; this does not test the GPU machine"
  fi
  local have_smi=0
  if [[ -z $fake ]] && command -v nvidia-smi >/dev/null; then
    have_smi=1
    echo "nvidia-smi -L:"
    timeout 30 nvidia-smi -L 2>&1 | show || true
  fi
  echo

  # ---- the runtime ------------------------------------------------------------------------------
  local v
  if v=$(timeout 30 "$JAVA_HOME/bin/java" -version 2>&1); then
    pass "java runs: $JAVA_HOME ($(sed -n 2p <<<"$v"))"
  else
    fail "java does not run from JAVA_HOME=$JAVA_HOME"
    show <<<"$v"
  fi

  # ---- (a) GpuList ------------------------------------------------------------------------------
  local cp out rc=0
  cp=$(printf '%s:' "$lib"/gq-nvml-*.jar "$lib"/gq-core-*.jar "$lib"/jna-[0-9]*.jar)
  out=$(timeout 60 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "${cp%:}" dev.gq.nvml.GpuList 2>&1) || rc=$?
  echo "dev.gq.nvml.GpuList (exit $rc):"
  show <<<"$out"
  local uuids target ngpus
  uuids=$(awk '$1 == "GPU" && $2 ~ /^[0-9]+$/ { print $3 }' <<<"$out")
  ngpus=$(grep -c . <<<"$uuids" || true)
  target=$(head -1 <<<"$uuids")
  if ((rc == 0 && ngpus > 0)); then
    pass "(a) GpuList lists $ngpus GPU(s) by UUID: $(paste -sd' ' <<<"$uuids")"
  else
    fail "(a) GpuList exited $rc and listed $ngpus GPU(s)"
  fi
  # each GPU's figures line ("  util 3%  memory bus 1%  34 C  71 W of 700 W"): NVML answered the new
  # queries on this driver; the health line appears only when the driver reported something
  local nutil
  nutil=$(grep -Ec '^  util [0-9]+%' <<<"$out" || true)
  if ((ngpus > 0 && nutil == ngpus)); then
    pass "(a) GpuList reads the utilisation of every GPU (temperature and power as the card gives them)"
  else
    fail "(a) GpuList read the utilisation of $nutil of $ngpus GPU(s)"
  fi
  if grep -q '^  health: Xids \[[0-9]' <<<"$out"; then
    info "a critical Xid error was reported while GpuList ran: see its lines above"
  fi
  if grep -Eq '^GPU [0-9]+ .*error: .*\(lost\)' <<<"$out"; then
    fail "(a) a GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)"
  fi
  if ((have_smi)); then
    local smi
    smi=$(timeout 30 nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | sed 's/ //g' | sort)
    if [[ -n $smi && $smi == "$(sort <<<"$uuids")" ]]; then
      pass "(a) the same UUIDs as nvidia-smi"
    else
      fail "(a) nvidia-smi lists other UUIDs: $(paste -sd' ' <<<"$smi")"
    fi
  fi

  # ---- (b) the daemon on the real GPUs ----------------------------------------------------------
  rc=0
  out=$(timeout 90 "$gq" daemon start 2>&1) || rc=$?
  if ((rc == 0)) && [[ $out =~ \(pid\ ([0-9]+)\) ]]; then
    daemon_pid=${BASH_REMATCH[1]}
    pass "(b) gq daemon started (pid $daemon_pid), data in $GQ_DATA_DIR"
    info "the daemon runs $(readlink "/proc/$daemon_pid/exe" 2>/dev/null || echo '(its java is not visible)')"
  else
    fail "(b) gq daemon start failed (exit $rc)"
    show <<<"$out"
    echo
    echo "$passed passed, $failed failed"
    exit 1
  fi
  out=$(gqc daemon status 2>&1 || true)
  show <<<"$out"
  if [[ -n $fake ]]; then
    if grep -q 'fake' <<<"$out"; then
      pass "(b) the daemon says its GPUs are fake (GQ_CHECK_FAKE)"
    else
      fail "(b) the daemon does not say its GPUs are fake"
    fi
  else
    if grep -qi 'fake' <<<"$out"; then
      fail "(b) the daemon uses fake GPUs; GQ_FAKE_NVML must not be set"
    else
      pass "(b) the daemon reads the real GPUs (no fake GPUs)"
    fi
  fi
  echo "gq gpu:"
  gqc gpu 2>&1 | show || true
  local rows missing="" u
  rows=$(gpu_rows)
  for u in $uuids; do
    grep -q "^$u " <<<"$rows" || missing+=" $u"
  done
  if [[ -n $uuids && -z $missing ]]; then
    pass "(b) gq gpu shows every GPU that GpuList found"
  else
    fail "(b) gq gpu lacks:${missing:- (GpuList found none)}"
  fi
  local json nfig nunwell
  json=$(gqc gpu --json 2>/dev/null || true)
  nfig=$(grep -Ec '"util_percent" *: *[0-9]+' <<<"$json" || true)
  nunwell=$(grep -Ec '"unwell" *: *"' <<<"$json" || true)
  if ((ngpus > 0 && nfig == ngpus)); then
    pass "(b) gq gpu --json gives the utilisation of every GPU"
  else
    fail "(b) gq gpu --json gives the utilisation of $nfig of $ngpus GPU(s)"
  fi
  if ((nunwell == 0)); then
    pass "(b) no GPU is drained as unwell"
  else
    fail "(b) $nunwell GPU(s) drained as unwell: see 'gq gpu' above (gq gpu resume N gives one back)"
  fi
  local state
  state=$(awk -v u="$target" '$1 == u { print $2 }' <<<"$rows")
  if [[ -z $target ]]; then
    fail "(b) no GPU to run (c) and (d) on"
  elif [[ $state == FREE ]]; then
    pass "(b) $target is FREE before the test"
  else
    fail "(b) $target is ${state:-not listed} before the test (another process on it?); (c) and (d) need it FREE"
  fi

  # ---- (c) a process outside gq takes the GPU ---------------------------------------------------
  local marker=$tmp/outside.ready hold=60 started=0 t0
  if [[ -n $fake ]]; then
    sleep "$hold" &
    outside_pid=$!
    echo 100 >"$GQ_FAKE_NVML/procs/$target/$outside_pid"
    : >"$marker"
    started=1
    info "fake outside process: sleep $hold, pid $outside_pid, listed on $target"
  else
    local py=${GPU_CHECK_PYTHON:-python3}
    if ! command -v "$py" >/dev/null; then
      fail "(c) $py not found: set GPU_CHECK_PYTHON to a python with a CUDA build of torch"
    elif [[ -z $target ]]; then
      fail "(c) no GPU to put an outside process on"
    else
      info "starting: $py -c 'import torch; torch.zeros(1, device=\"cuda\"); ...' on $target"
      CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$target "$py" -c '
import sys, time, torch
torch.zeros(1, device="cuda")
open(sys.argv[1], "w").write("ready\n")
time.sleep(float(sys.argv[2]))
' "$marker" "$hold" >"$tmp/outside.log" 2>&1 &
      outside_pid=$!
      # importing torch and making the context can take a while on a cold machine
      local deadline=$((SECONDS + 120))
      while [[ ! -e $marker ]] && kill -0 "$outside_pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
      if [[ -e $marker ]]; then
        started=1
        info "outside process pid $outside_pid has a CUDA context"
      else
        fail "(c) the outside process did not make a CUDA context within 120 s (or exited):"
        show <"$tmp/outside.log"
      fi
    fi
  fi
  local seen_state="" seen_pids="" waited=""
  if ((started)); then
    t0=$(now_ms)
    local deadline_ms=$((t0 + 15000 + poll_ms))
    while (($(now_ms) < deadline_ms)); do
      rows=$(gpu_rows)
      seen_state=$(awk -v u="$target" '$1 == u { print $2 }' <<<"$rows")
      seen_pids=$(awk -v u="$target" '$1 == u { print $3 }' <<<"$rows")
      if [[ $seen_state == EXTERNAL ]]; then
        waited=$(($(now_ms) - t0))
        break
      fi
      sleep 0.25
    done
    if [[ $seen_state == EXTERNAL ]]; then
      pass "(c) $target is EXTERNAL while the outside process holds it (seen ${waited} ms after the context was made)"
    else
      fail "(c) $target is ${seen_state:-not listed}, not EXTERNAL, 15 s after the outside process made its context"
    fi
    if [[ ,$seen_pids, == *",$outside_pid,"* ]]; then
      pass "(c) gq gpu lists the outside process's pid $outside_pid on $target"
    else
      fail "(c) gq gpu lists pids '$seen_pids' on $target, not $outside_pid (NVML in another PID namespace?)"
    fi
    echo "gq gpu:"
    gqc gpu 2>&1 | show || true
  fi

  # ---- (d) a job for that GPU waits, then runs --------------------------------------------------
  local job=""
  if ((started)) && [[ $seen_state == EXTERNAL ]]; then
    # every GPU, so that the job needs the held one whatever the number of GPUs
    # shellcheck disable=SC2016 # expanded by the job's sh
    out=$(gqc -g "$ngpus" --name gpu-check sh -c \
      'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES GQ_GPU_UUIDS=$GQ_GPU_UUIDS"; if command -v nvidia-smi >/dev/null; then nvidia-smi -L; fi' 2>&1) || true
    if [[ $out =~ Submitted\ job\ ([0-9]+) ]]; then
      job=${BASH_REMATCH[1]}
      info "submitted job $job: gq -g $ngpus sh -c '... nvidia-smi -L'"
    else
      fail "(d) the submit failed:"
      show <<<"$out"
    fi
  else
    fail "(d) not run: no outside process holds ${target:-a GPU}"
  fi
  if [[ -n $job ]]; then
    local watch_ms=$((poll_ms * 3 > 4000 ? poll_ms * 3 : 4000)) st states=""
    t0=$(now_ms)
    while (($(now_ms) - t0 < watch_ms)); do
      st=$(job_field "$job" state)
      [[ " $states " == *" $st "* ]] || states+=" $st"
      sleep 0.5
    done
    if [[ $states == " WAITING" ]]; then
      pass "(d) job $job stays WAITING for $((watch_ms / 1000)) s while the outside process holds $target"
    else
      fail "(d) job $job went through:$states while $target was held"
    fi
    echo "gq ps:"
    gqc ps 2>&1 | show || true

    # end the outside process (this check's own child) and free the fake GPU
    kill -TERM "$outside_pid" 2>/dev/null || true
    local deadline=$((SECONDS + 15))
    while kill -0 "$outside_pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    kill -KILL "$outside_pid" 2>/dev/null || true
    wait "$outside_pid" 2>/dev/null || true
    if [[ -n $fake ]]; then rm -f "$GQ_FAKE_NVML/procs/$target/$outside_pid"; fi
    local ended
    ended=$(now_ms)
    info "outside process $outside_pid ended"
    outside_pid=""

    st=""
    local deadline_ms=$((ended + 30000))
    while (($(now_ms) < deadline_ms)); do
      st=$(job_field "$job" state)
      case $st in DONE | FAILED | CANCELLED | ORPHANED | INTERRUPTED) break ;; esac
      sleep 0.25
    done
    local start_time
    start_time=$(job_field "$job" start_time)
    if [[ $st == DONE ]]; then
      local start_ns start_ms
      start_ns=$(date -d "$start_time" +%s%N 2>/dev/null || echo $((ended * 1000000)))
      start_ms=$((start_ns / 1000000))
      pass "(d) job $job ran once the GPU was free: started $((start_ms - ended)) ms after the outside process ended, DONE"
    else
      fail "(d) job $job is ${st:-unknown} 30 s after the outside process ended (reason: $(job_field "$job" failure_reason))"
    fi
    echo "gq logs $job:"
    out=$(gqc logs "$job" 2>&1 || true)
    show <<<"$out"
    if [[ $out == *"GQ_GPU_UUIDS="*"$target"* ]]; then
      pass "(d) the job was given $target (GQ_GPU_UUIDS)"
    else
      fail "(d) the job's GQ_GPU_UUIDS does not name $target"
    fi
  fi

  # ---- (e) stop ----------------------------------------------------------------------------------
  rc=0
  out=$(timeout 30 "$gq" daemon stop 2>&1) || rc=$?
  local gone=0
  for _ in $(seq 75); do
    if ! kill -0 "$daemon_pid" 2>/dev/null; then gone=1; break; fi
    sleep 0.2
  done
  if ((rc == 0 && gone)); then
    pass "(e) gq daemon stop: the daemon exited"
  else
    fail "(e) gq daemon stop exited $rc, daemon still running: $((1 - gone))"
    show <<<"$out"
  fi

  echo
  echo "$passed passed, $failed failed"
  ((failed == 0))
}

case $mode in
  pack) pack ;;
  run) run ;;
  -h | --help) sed -n '2,21p' "$self" | sed 's/^# \{0,1\}//' ;;
  *) usage >&2; exit 2 ;;
esac
