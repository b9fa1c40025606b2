# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/parts-cli.sh (sourced by bench/run.sh): the parts that time whole client commands:
# ps and submit, with the history of finished jobs they share.

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

# ---- ps -------------------------------------------------------------------------------------------
part_ps() {
  say "== ps: gq ps, gq gpu and gq show with $HISTORY jobs in history"
  # what a client run costs before it talks to a daemon
  if ((!shared_instance)); then
    use_instance nodaemon 1
    measure nodaemon "$RUNS" 1 "$gq" daemon status
    row "gq daemon status, no daemon running (the native client alone)" "$work/res/nodaemon" ms "-" "-"
  fi

  ensure_history
  measure status "$RUNS" 0 "$gq" daemon status
  row "gq daemon status, daemon up" "$work/res/status" ms "-" "-"
  measure ps "$RUNS" 0 "$gq" ps
  local m
  m=$(median_of "$work/res/ps")
  row "gq ps, daemon up, $HISTORY jobs in history" "$work/res/ps" ms "median <= 10" "$(verdict "$m" 10)"
  chart "list the queue (gq ps; gpuq status)" ms low gq "$m" 10
  measure gpu "$RUNS" 0 "$gq" gpu
  m=$(median_of "$work/res/gpu")
  row "gq gpu, daemon up" "$work/res/gpu" ms "median <= 10" "$(verdict "$m" 10)"
  measure show "$RUNS" 0 "$gq" show "$HISTORY"
  m=$(median_of "$work/res/show")
  row "gq show JOB (a finished job), daemon up" "$work/res/show" ms "median <= 10" "$(verdict "$m" 10)"
  # the checkout's launcher script in front of the same client: what bash adds
  measure ps_launcher "$RUNS" 0 "$snapshot/bin/gq" ps
  row "bin/gq ps (the checkout's launcher script, then the native client)" "$work/res/ps_launcher" ms "-" "-"

  measure ps_all "$((RUNS < 10 ? RUNS : 10))" 0 "$gq" ps --all
  row "gq ps --all ($(grep -c . <<<"$("$gq" ps --all 2>/dev/null)") lines of output)" "$work/res/ps_all" ms "-" "-"

  # the daemon's share: the same request from a JVM that is already running
  if ((have_javac)); then
    raw_requests $((RUNS * 3)) "$work/res/ps_raw" ps >/dev/null || die "raw ps requests failed"
    row "ps request served by the daemon (connect .. exit frame, from a running JVM)" "$work/res/ps_raw" ms "-" "-"
  fi
  ps_waiting
}

# `gq ps` piped (every row) with WAITING_JOBS jobs waiting in a held queue (5,000; 50 in the smoke
# run, which holds its shared queue only meanwhile), whole CLI process and the daemon's share.
ps_waiting() {
  local n=${BENCH_WAITING_JOBS:-5000} m i
  if ((shared_instance)); then n=50; fi
  use_instance waiting 4
  start_daemon
  "$gq" hold --all >/dev/null 2>&1 || die "gq hold --all failed"
  awk -v n=1000 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/waiting.batch"
  if ((n < 1000)); then head -n "$n" "$work/waiting.batch" >"$work/waiting.part" && mv "$work/waiting.part" "$work/waiting.batch"; fi
  for ((i = 0; i < n; i += 1000)); do
    "$gq" submit -g 0 --group bench-wait --batch "$work/waiting.batch" >/dev/null 2>&1 || die "queueing the waiting jobs failed"
  done
  say "  $("$gq" daemon status | grep '^Jobs:')"
  measure ps_wait "$((RUNS < 10 ? RUNS : 10))" 0 "$gq" ps
  m=$(median_of "$work/res/ps_wait")
  if ((n == 5000)); then
    row "gq ps, 5000 jobs waiting (queue held), piped: every row, whole CLI process" "$work/res/ps_wait" ms "median <= 40" "$(verdict "$m" 40)"
  else
    row "gq ps, $n jobs waiting (queue held), piped: every row, whole CLI process" "$work/res/ps_wait" ms "40 for 5,000 jobs" "-"
  fi
  if ((have_javac)); then
    raw_requests "$((RUNS < 10 ? RUNS : 10))" "$work/res/ps_wait_raw" ps >/dev/null || die "raw ps requests failed"
    row "ps request with $n jobs waiting, served by the daemon (from a running JVM)" "$work/res/ps_wait_raw" ms "-" "-"
  fi
  "$gq" cancel --group bench-wait --waiting -y >/dev/null 2>&1 || die "gq cancel --group bench-wait failed"
  "$gq" release --all >/dev/null 2>&1 || die "gq release --all failed"
  stop_daemon
}

# ---- submit ---------------------------------------------------------------------------------------
part_submit() {
  say "== submit: gq -g 0 true, gq -g 1 true, and $BULK_LINES jobs in one call"
  ensure_history
  measure submit "$RUNS" 0 "$gq" -g 0 true
  row "gq -g 0 true (submit, no GPU), daemon up" "$work/res/submit" ms "-" "-"
  wait_no_live_jobs 120 || note "the submitted 'true' jobs had not all ended 120 s later"
  # one fake GPU each, as a job for the peers' queues would be: the jobs run meanwhile
  measure submit_g1 "$RUNS" 0 "$gq" -g 1 true
  local m
  m=$(median_of "$work/res/submit_g1")
  row "gq -g 1 true (submit, 1 of $instance_gpus fake GPUs), daemon up" "$work/res/submit_g1" ms "median <= 10" "$(verdict "$m" 10)"
  chart "submit one job (whole command)" ms low gq "$m" 10
  wait_no_live_jobs 120 || note "the submitted 'true' jobs had not all ended 120 s later"
  # a sweep as the README writes it: one call per cell from a shell loop, each with its key
  local t0 t1 ms budget=$((KEY_CALLS * 15))
  t0=$(now_us)
  for ((i = 0; i < KEY_CALLS; i++)); do
    "$gq" -g 1 --key "bench/cell$i" true >/dev/null || die "gq -g 1 --key bench/cell$i true failed"
  done
  t1=$(now_us)
  ms=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.0f", d / 1000 }')
  if ((KEY_CALLS == 1000)); then
    row1 "1000 \`gq -g 1 --key K true\` calls from a shell loop (the jobs run meanwhile), whole loop" "$ms" ms "<= 15000" "$(verdict "$ms" 15000)"
  else
    row1 "$KEY_CALLS \`gq -g 1 --key K true\` calls from a shell loop (the jobs run meanwhile), whole loop" "$ms" ms "15000 for 1,000 calls" "$(verdict "$ms" "$budget")"
  fi
  if ((have_javac)); then
    raw_requests "$RUNS" "$work/res/submit_raw2" run -g 0 true >/dev/null || die "raw submit requests failed"
    row "submit request served by the daemon (connect .. exit frame, from a running JVM)" "$work/res/submit_raw2" ms "-" "-"
  fi
  wait_no_live_jobs 120 || note "the submitted 'true' jobs had not all ended 120 s later"
  check_batch
  if ((!have_batch)); then
    note "this build has no bulk submit (gq submit --batch): the 1,000-jobs-in-one-call budget is not measured"
    return 0
  fi
  # the bulk call alone: on a held queue nothing starts, so only the submit is timed
  use_instance bulk 4
  start_daemon
  "$gq" hold --all >/dev/null 2>&1 || die "gq hold --all failed"
  awk -v n="$BULK_LINES" 'BEGIN { for (i = 0; i < n; i++) print "true" }' >"$work/bulk.batch"
  local WARMUP=1 m
  measure bulk "$BULK_RUNS" 0 "$gq" submit -g 0 --group bench-bulk --batch "$work/bulk.batch"
  m=$(median_of "$work/res/bulk")
  if ((BULK_LINES == 1000)); then
    row "gq submit -g 0 --batch, 1000 jobs, queue held (after 1 warm-up call: 1000 to $((1000 * BULK_RUNS)) already waiting), whole CLI process" \
      "$work/res/bulk" ms "<= 2000" "$(verdict "$m" 2000)"
    chart "bulk submit, 1,000 jobs in one call" ms low gq "$m" 2000
  else
    row "gq submit -g 0 --batch, $BULK_LINES jobs, queue held, whole CLI process" "$work/res/bulk" ms "2000 for 1,000 jobs" "-"
  fi
  "$gq" cancel --group bench-bulk --waiting -y >/dev/null 2>&1 || die "gq cancel --group bench-bulk failed"
  "$gq" release --all >/dev/null 2>&1 || die "gq release --all failed"
  stop_daemon
}
