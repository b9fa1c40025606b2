# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/parts-daemon.sh (sourced by bench/run.sh): the daemon's own figures: ready time after
# a start (empty history, 1,000 jobs, 100,000 jobs) and its idle memory and CPU.

# ---- the 100,000-job history ----------------------------------------------------------------------
# Starts the "big" instance's daemon with BIG_HISTORY finished jobs, made once per run: the queue
# held (gq hold --all), BIG_CHUNK 0-GPU `true` jobs per `gq submit --batch`, each chunk cancelled at once with
# `gq cancel --group`, so every job ends CANCELLED without running. Returns 1 when the build
# cannot do that (no bulk submit).
big_history_made=0
ensure_big_history() {
  use_instance big 4
  start_daemon
  ((big_history_made)) && return 0
  check_batch
  if ((!have_batch)); then
    note "this build has no bulk submit (gq submit --batch): the $BIG_HISTORY-job history is not made and its ready time not measured"
    return 1
  fi
  say "making a history of $BIG_HISTORY finished jobs (chunks of $BIG_CHUNK, cancelled before they start) ..."
  local t0 t1 made=0 n out calls=0
  t0=$(now_us)
  "$gq" hold --all >/dev/null 2>&1 || die "gq hold --all failed"
  while ((made < BIG_HISTORY)); do
    n=$((BIG_HISTORY - made < BIG_CHUNK ? BIG_HISTORY - made : BIG_CHUNK))
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/big.batch"
    out=$("$gq" submit -g 0 --group bench-history --batch "$work/big.batch" 2>&1) || die "submitting the big history failed: $out"
    out=$("$gq" cancel --group bench-history --waiting -y 2>&1) || die "cancelling the big history failed: $out"
    made=$((made + n)) calls=$((calls + 1))
  done
  "$gq" release --all >/dev/null 2>&1 || die "gq release --all failed"
  t1=$(now_us)
  big_history_made=1
  local count secs
  count=$(group_count bench-history CANCELLED)
  secs=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.0f", d / 1e6 }')
  [[ $count == "$BIG_HISTORY" ]] || note "the big history should hold $BIG_HISTORY CANCELLED jobs of group bench-history; \`gq groups\` counted ${count:-none}"
  note "the $BIG_HISTORY-job history was made in $secs s: the queue held, $calls \`gq submit -g 0 --group bench-history --batch\` calls of up to $BIG_CHUNK 'true' jobs, each followed by \`gq cancel --group bench-history --waiting -y\`, then released; every job ends CANCELLED without running (database $(du -h "$GQ_DATA_DIR/gq.db" | cut -f1), \`gq daemon status\` shows only live jobs: $(grep '^Jobs:' <<<"$("$gq" daemon status 2>/dev/null)" | tr -s ' '))"
  row1 "making the $BIG_HISTORY-job history ($calls bulk submits, each cancelled before anything started)" "$secs" s "-" "-"
}

# group_count GROUP STATE: how many jobs of GROUP are in STATE, by `gq groups` (or by
# `gq ps --all --json` in a build without it)
group_count() {
  local out
  if out=$("$gq" groups 2>/dev/null) && [[ $out == GROUP* ]]; then
    awk -v g="$1" -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == s) c = i; next } $1 == g && c { print $c }' <<<"$out"
  else
    "$gq" ps --all --json --group "$1" --state "$2" | grep -c '"id":' || true
  fi
}

# ---- ready ------------------------------------------------------------------------------------------

# cold_starts NAME: READY_STARTS cold starts of the current instance (after READY_WARM unmeasured
# ones); leaves the daemon stopped
cold_starts() {
  local key=$1 i t0 t1 t2 deadline
  : >"$work/res/${key}_start"
  : >"$work/res/${key}_status"
  stop_daemon force
  local log=$GQ_DATA_DIR/gq-daemon.log lines
  for ((i = 1 - READY_WARM; i <= READY_STARTS; i++)); do
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
      ms_between "$t0" "$t1" >>"$work/res/${key}_start"
      ms_between "$t0" "$t2" >>"$work/res/${key}_status"
      tail -n +$((lines + 1)) "$log" | start_stages "$key" "$t0"
    fi
    stop_daemon force
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

# ready_rows KEY WHAT BUDGET VERDICT: the rows of one series of cold starts
ready_rows() {
  local key=$1 what=$2 m
  m=$(median_of "$work/res/${key}_status")
  row "gq daemon start returns (daemon answered a ping), $what" "$work/res/${key}_start" ms "-" "-"
  row "ready, $what: gq daemon start .. gq daemon status answers" "$work/res/${key}_status" ms "$3" "$4"
  stage_rows "$key" "$what"
  chart "daemon ready after start (start invoked -> status answers)" ms low "gq: $what" "$m" 3000
}

part_ready() {
  say "== ready: gq daemon start until gq daemon status answers, $READY_STARTS cold starts each"
  local m jobs
  if ((!shared_instance)); then
    use_instance empty 4
    start_daemon
    cold_starts ready_empty
    m=$(median_of "$work/res/ready_empty_status")
    ready_rows ready_empty "empty history" "median <= 3000" "$(verdict "$m" 3000)"
    ensure_history
    jobs=$(history_count)
    cold_starts ready_hist
    ready_rows ready_hist "$jobs jobs in history" "3000 with 100,000 jobs" "-"
  fi
  if ensure_big_history; then
    jobs=$(history_count)
    cold_starts ready_big
    m=$(median_of "$work/res/ready_big_status")
    if ((jobs >= 100000)); then
      ready_rows ready_big "$jobs jobs in history" "median <= 3000" "$(verdict "$m" 3000)"
    else
      ready_rows ready_big "$jobs jobs in history" "3000 with 100,000 jobs" "-"
    fi
  fi
}

# ---- idle -------------------------------------------------------------------------------------------

# waits (up to 300 s) until the current daemon's notifier has looked at every stored event (`gq daemon
# status` says how many it has not); prints how many seconds that took
notifier_caught_up() {
  local t0=$SECONDS
  while "$gq" daemon status 2>/dev/null | grep -q 'not yet looked at for notifications'; do
    ((SECONDS - t0 < 300)) || break
    sleep 1
  done
  echo $((SECONDS - t0))
}

# idle_measure LABEL PID: RSS after IDLE_SETTLE s, CPU over the next IDLE_SECONDS s, both once the
# daemon has finished the work it was given (its notifier has caught up with the journal)
idle_measure() {
  local label=$1 pid=$2 tck rss hwm threads a b t0 t1 cpu waited
  tck=$(getconf CLK_TCK)
  waited=$(notifier_caught_up)
  say "  $label: waited $waited s for the notifier to catch up; settling $IDLE_SETTLE s, then $IDLE_SECONDS s of CPU accounting"
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
  chart "daemon idle RSS" MiB low "gq: $3" "$rss" 150
  chart "daemon idle CPU over ${IDLE_SECONDS} s" "% of a core" low "gq: $3" "$cpu" 1
  note "daemon $label: VmHWM (peak RSS) $hwm MiB, $threads threads, $((b - a)) CPU ticks of 1/$tck s in $IDLE_SECONDS s (GQ_POLL_INTERVAL_MS ${GQ_POLL_INTERVAL_MS:-default 1000}); waited $waited s for its notifier to look at every stored event"
}

part_idle() {
  say "== idle: the daemon's memory and CPU when nothing happens"
  local pid
  if ((shared_instance)); then
    use_instance smoke 4
    start_daemon
    idle_measure "the smoke run's daemon" "$started_pid" "smoke"
    return 0
  fi
  if [[ $part == all && -d $work/inst/hist ]]; then
    use_instance hist 4
    start_daemon
    pid=$started_pid
    idle_measure "after the ps, submit, start and logs parts ($(history_count) jobs in history)" "$pid" "after work"
    stop_daemon
  fi
  use_instance idle 4
  start_daemon
  idle_measure "freshly started, empty history" "$started_pid" "fresh"
  stop_daemon
}
