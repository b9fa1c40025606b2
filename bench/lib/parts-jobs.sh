# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/parts-jobs.sh (sourced by bench/run.sh): the parts that run jobs and time them by the
# jobs' own stamps and the daemon's event times: start, logs, throughput (with the burst), handoff.

gq_idle() { wait_no_live_jobs 120; }

# gq_submit_stamp FILE: one job on one fake GPU whose first act stamps FILE; its id into start_ids
gq_submit_stamp() {
  local out
  out=$("$gq" -g 1 sh -c "$stamp_body" "$1" 2>&1) || { say "$out"; return 1; }
  start_ids+=("$(job_id "$out")")
}

# ---- start: submit -> start of one job on an idle daemon -----------------------------------------
part_start() {
  say "== start: submit -> start of one job on an idle daemon, $START_RUNS runs"
  ensure_history
  mkdir -p "$work/stamps-start"
  start_ids=()
  idle_fn=gq_idle
  start_latency start_gq "$work/stamps-start/gq" gq_submit_stamp
  row "submit -> start, idle daemon: before \`gq -g 1 sh -c 'date +%s%N >F' F\` is invoked -> the job's first moment" \
    "$work/res/start_gq" ms "-" "-"
  chart "submit -> start of one job, idle queue" ms low gq "$(median_of "$work/res/start_gq")"
  # the same jobs by the daemon's event times
  gq_idle || true
  job_times "$work/start.times"
  local id sub st i=0
  : >"$work/res/start_daemon"
  : >"$work/res/start_launch"
  for id in "${start_ids[@]}"; do
    i=$((i + 1))
    sub="" st=""
    read -r sub st < <(awk -v id="$id" '$1 == id { print $3, $4 }' "$work/start.times") || true
    [[ -n $sub && $sub != 0 && $st != 0 ]] || continue
    awk -v a="$sub" -v b="$st" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$work/res/start_daemon"
    awk -v a="$st" -v b="$(<"$work/stamps-start/gq.$i")" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$work/res/start_launch"
  done
  row "  of which: daemon's submit_time -> start_time (in-daemon, from its event times)" "$work/res/start_daemon" ms "-" "-"
  row "  of which: daemon's start_time -> the job's first moment (launch)" "$work/res/start_launch" ms "-" "-"
}

# ---- logs: gq logs -f delay ------------------------------------------------------------------------
part_logs() {
  say "== logs: gq logs -f, from a line written to the line shown, $LOG_LINES lines"
  ensure_history
  local gate=$work/logs.gate out id arrivals=$work/logs.arrivals
  rm -f "$gate"
  # the job says "ready", waits for the follower to have seen that, then prints LOG_LINES
  # timestamps about 200 ms apart
  # shellcheck disable=SC2016 # the job's sh expands these
  out=$("$gq" -g 0 --name logs-follow sh -c 'echo ready; i=0; while [ ! -e "$0" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; n=0; while [ $n -lt "$1" ]; do date +%s%N; sleep 0.2; n=$((n+1)); done' \
    "$gate" "$LOG_LINES" 2>&1) || die "submitting the logs job failed: $out"
  id=$(job_id "$out")
  timeout $((90 + LOG_LINES)) "$gq" logs -f "$id" 2>"$work/logs.err" | follow_reader "$gate" >"$arrivals" ||
    die "gq logs -f $id failed or did not end: $(tail -3 "$work/logs.err")"
  awk '{ printf "%.3f\n", ($2 * 1000 - $1) / 1e6 }' "$arrivals" >"$work/res/logs"
  local n
  n=$(grep -c . "$work/res/logs" || true)
  ((n == LOG_LINES)) || note "gq logs -f showed $n of the job's $LOG_LINES timestamp lines"
  ((n > 0)) || die "gq logs -f showed none of the job's lines"
  row "gq logs -f: a line written (date +%s%N in the job) -> the line read from the command's output" "$work/res/logs" ms "-" "-"
  chart "gq logs -f: line written -> shown" ms low gq "$(median_of "$work/res/logs")"
}

# follow_reader GATE: for each line of standard input, "line arrival_us"; the line "ready" opens
# the gate instead
follow_reader() {
  local line
  while IFS= read -r line; do
    if [[ $line == ready ]]; then
      : >"$1"
    elif [[ $line =~ ^[0-9]{19}$ ]]; then
      printf '%s %s\n' "$line" "${EPOCHREALTIME/[.,]/}"
    fi
  done
}

# ---- throughput: many short jobs through 4 GPUs, and a burst -------------------------------------
part_throughput() {
  say "== throughput: $THROUGHPUT_JOBS 'true' jobs (-g 1) through 4 fake GPUs; a burst of $BURST jobs"
  use_instance tp 4
  start_daemon
  check_batch
  local t0 t1 t2 out
  awk -v n="$THROUGHPUT_JOBS" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/tp.batch"
  t0=$(now_us)
  if ((have_batch)); then
    out=$("$gq" submit -g 1 --group bench-tp --batch "$work/tp.batch" 2>&1) || die "the throughput submit failed: $out"
  else
    out=$(raw_requests "$THROUGHPUT_JOBS" "$work/res/tp_raw" run -g 1 --group bench-tp true) || die "the throughput submit failed: $out"
  fi
  t1=$(now_us)
  wait_no_live_jobs $((300 + THROUGHPUT_JOBS / 2)) || { diagnose; die "the throughput jobs did not finish in time"; }
  t2=$(now_us)
  job_times "$work/tp.times" --group bench-tp
  local n done_n first_sub last_end
  n=$(grep -c . "$work/tp.times" || true)
  done_n=$(awk '$2 == "DONE"' "$work/tp.times" | grep -c . || true)
  ((n == THROUGHPUT_JOBS)) || die "expected $THROUGHPUT_JOBS jobs in group bench-tp, found $n"
  ((done_n == n)) || note "throughput: $((n - done_n)) of the $n jobs did not end DONE"
  first_sub=$(awk 'NR == 1 || $3 < m { m = $3 } END { print m }' "$work/tp.times")
  last_end=$(awk '$5 > m { m = $5 } END { print m }' "$work/tp.times")
  local rate rate_d rate_w
  rate=$(awk -v n="$n" -v a="$t0" -v e="$last_end" 'BEGIN { printf "%.1f", n / ((e / 1000 - a) / 1e6) }')
  rate_d=$(awk -v n="$n" -v a="$first_sub" -v e="$last_end" 'BEGIN { printf "%.1f", n / ((e - a) / 1e9) }')
  rate_w=$(awk -v n="$n" -v a="$t0" -v e="$t2" 'BEGIN { printf "%.1f", n / ((e - a) / 1e6) }')
  row1 "throughput, $n 'true' jobs -g 1 on 4 fake GPUs, one \`gq submit --batch\`: submit invoked -> last job's end_time" "$rate" "jobs/s" "-" "-"
  row1 "  the same, in-daemon: first submit_time -> last end_time" "$rate_d" "jobs/s" "-" "-"
  row1 "  the same, wall: submit invoked -> \`gq daemon status\` shows none live (polled)" "$rate_w" "jobs/s" "-" "-"
  row1 "  of which: the submit command ($n jobs in one call)" "$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1000 }')" ms "-" "-"
  chart "throughput, $THROUGHPUT_JOBS 'true' jobs on 4 slots" "jobs/s" high gq "$rate"
  gq_burst
  stop_daemon
}

# gq_burst: BURST stamping jobs submitted back to back, one command each; until the last started
gq_burst() {
  local dir=$work/stamps-burst-gq i t0 last
  mkdir -p "$dir"
  t0=$(now_us)
  for ((i = 1; i <= BURST; i++)); do
    "$gq" -g 1 sh -c "$stamp_body" "$dir/$i" >/dev/null 2>&1 || die "burst submit $i failed"
  done
  for ((i = 1; i <= BURST; i++)); do wait_for_file "$dir/$i" 120 || die "burst job $i did not start within 120 s"; done
  last=$(cat "$dir"/* | sort -n | tail -1)
  burst_row gq "$t0" "$last" "\`gq -g 1 sh -c 'date +%s%N >F' F\`"
}

# burst_row TOOL T0_US LAST_NS HOW: the row and the chart figure of a burst
burst_row() {
  local ms
  ms=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", (b / 1000 - a) / 1000 }')
  row1 "$1: burst of $BURST jobs submitted back to back ($4): first submit invoked -> the last job's first moment" "$ms" ms "-" "-"
  chart "burst: $BURST jobs back to back, until the last started" ms low "$1" "$ms"
}

# ---- handoff: a job's exit to the next waiting job's start ---------------------------------------
part_handoff() {
  say "== handoff: a job's exit to the next waiting job's start, 1 GPU, $HANDOFF_JOBS jobs"
  use_instance handoff 1
  start_daemon
  # every job takes every GPU of the instance (1; 4 in the smoke run), so they run one at a time
  local g=$instance_gpus stamps=$work/stamps-handoff gate=$work/gate i out first
  mkdir -p "$stamps"
  # a gate job holds the GPU until all the others wait; each job stamps its first and last moment
  # shellcheck disable=SC2016 # the job's sh expands these
  out=$("$gq" -g "$g" --name gate sh -c \
    'i=0; while [ ! -e "$0" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; date +%s%N >"$1/$GQ_JOB_ID.end"' \
    "$gate" "$stamps" 2>&1) || die "submitting the gate job failed: $out"
  first=$(job_id "$out")
  for ((i = 0; i < HANDOFF_JOBS; i++)); do
    # shellcheck disable=SC2016 # the job's sh expands these
    "$gq" -g "$g" --name step sh -c 'date +%s%N >"$0/$GQ_JOB_ID.start"; date +%s%N >"$0/$GQ_JOB_ID.end"' \
      "$stamps" >/dev/null 2>&1 || die "submitting handoff job $i failed"
  done
  touch "$gate"
  wait_no_live_jobs 180 || { diagnose; die "the handoff jobs did not finish within 3 minutes"; }
  job_times "$work/handoff.times"
  # this run's jobs only (the smoke run's shared instance has others)
  awk -v f="$first" '$1 >= f' "$work/handoff.times" >"$work/handoff.rows"
  local n
  n=$(grep -c . "$work/handoff.rows" || true)
  ((n == HANDOFF_JOBS + 1)) || die "expected $((HANDOFF_JOBS + 1)) jobs in gq ps --all, found $n"
  local missing
  missing=$(awk '$4 == 0 || $5 == 0 { printf "%s%s", sep, $1; sep = ", " }' "$work/handoff.rows")
  if [[ -n $missing ]]; then
    note "handoff: after every job had ended (\`gq daemon status\`: 0 running, 0 waiting), \`gq ps --all --json\` had no start or end time for job(s) $missing; the pairs around them are left out"
  fi
  handoff_gaps "$stamps" "$first"
  local m
  m=$(median_of "$work/res/handoff_daemon")
  row "exit to next start, daemon's times: start_time(next) - end_time(previous)" \
    "$work/res/handoff_daemon" ms "median <= 50" "$(verdict "$m" 50)"
  chart "exit -> next start on the freed GPU" ms low "gq: daemon's times" "$m" 50
  m=$(median_of "$work/res/handoff_job")
  row "exit to next start, as the jobs see it: next job's first moment - previous job's last moment" \
    "$work/res/handoff_job" ms "median <= 50" "$(verdict "$m" 50)"
  chart "exit -> next start on the freed GPU" ms low "gq: as the jobs see it" "$m" 50
  row "  of which: job's last moment -> daemon's end_time (exit noticed)" "$work/res/handoff_detect" ms "-" "-"
  row "  of which: daemon's start_time -> job's first moment (launch)" "$work/res/handoff_launch" ms "-" "-"
  stop_daemon
}

# handoff_gaps STAMPS FIRST_ID: the gaps between consecutive jobs of $work/handoff.rows (ms)
handoff_gaps() {
  local stamps=$1 first=$2 prev_id="" prev_end="" id state sub start end js je
  local f
  for f in handoff_daemon handoff_job handoff_detect handoff_launch; do : >"$work/res/$f"; done
  # shellcheck disable=SC2034 # state and sub are read only to skip them
  while read -r id state sub start end; do
    if [[ $start == 0 || $end == 0 || ! -s $stamps/$id.end || ($id != "$first" && ! -s $stamps/$id.start) ]]; then
      prev_id=""
      continue
    fi
    if [[ -n $prev_id ]]; then
      js=$(<"$stamps/$id.start")
      je=$(<"$stamps/$prev_id.end")
      awk -v d=$((start - prev_end)) 'BEGIN { printf "%.3f\n", d / 1e6 }' >>"$work/res/handoff_daemon"
      awk -v d=$((js - je)) 'BEGIN { printf "%.3f\n", d / 1e6 }' >>"$work/res/handoff_job"
      awk -v d=$((js - start)) 'BEGIN { printf "%.3f\n", d / 1e6 }' >>"$work/res/handoff_launch"
    fi
    je=$(<"$stamps/$id.end")
    awk -v d=$((end - je)) 'BEGIN { printf "%.3f\n", d / 1e6 }' >>"$work/res/handoff_detect"
    prev_id=$id prev_end=$end
  done <"$work/handoff.rows"
}
