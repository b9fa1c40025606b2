# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/parts-clients.sh (sourced by bench/run.sh): many clients at once. CLIENTS shells
# start together and each submits CLIENT_CALLS keyed jobs one after another, as CLIENTS copies of
# a sweep script would; every key is sent by two clients (client c and client c + CLIENTS/2 send
# the same keys in the same order), so that the daemon decides the same key twice at about the
# same moment. The queue is held: only the submits are timed, and nothing runs meanwhile.

# clients_loop C FIRST OUT GATE: client C's CLIENT_CALLS submits of keys bench-clients/FIRST/0..,
# once GATE exists; each call's wall time (us) into OUT, its answer (the job id, -q; "-" for a
# call that failed) into OUT.ids, line i for key i
clients_loop() {
  local first=$2 out=$3 gate=$4 i t0 t1 times=()
  until [[ -e $gate ]]; do sleep 0.01; done
  for ((i = 0; i < CLIENT_CALLS; i++)); do
    t0=${EPOCHREALTIME/[.,]/}
    if ! "$gq" -g 1 -q --group bench-clients --key "bench-clients/$first/$i" true >>"$out.ids" 2>>"$out.err"; then
      echo "call $i failed" >>"$out.failed"
      echo - >>"$out.ids"   # keeps line i for key i
    fi
    t1=${EPOCHREALTIME/[.,]/}
    times+=($((t1 - t0)))
  done
  printf '%s\n' "${times[@]}" >"$out"
  : >"$out.done"
}

part_clients() {
  local half=$((CLIENTS / 2)) dir=$work/clients c t0 t1 pids=() failed dup=0 missing=0 jobs keys
  ((half >= 1)) || half=1
  say "== clients: $CLIENTS clients at once, $CLIENT_CALLS keyed submits each (gq -g 1 -q --key K true), the queue held"
  use_instance clients 4
  start_daemon
  "$gq" hold --all >/dev/null 2>&1 || die "gq hold --all failed"
  rm -rf "$dir"
  mkdir -p "$dir"
  for ((c = 0; c < CLIENTS; c++)); do
    clients_loop "$c" $((c % half)) "$dir/$c" "$dir/gate" &
    pids+=($!)
  done
  t0=$(now_us)
  : >"$dir/gate"
  for c in "${pids[@]}"; do wait "$c" || true; done
  t1=$(now_us)
  for ((c = 0; c < CLIENTS; c++)); do
    [[ -f $dir/$c.done ]] || die "client $c did not finish: $(tail -2 "$dir/$c.err" 2>/dev/null)"
  done
  failed=$(cat "$dir"/*.failed 2>/dev/null | grep -c . || true)
  if ((failed > 0)); then
    local first_err
    first_err=$(cat "$dir"/*.err 2>/dev/null | grep -v 'queue is held' | head -1)
    ((failed < CLIENTS * CLIENT_CALLS)) || die "clients: every submit failed: $first_err"
    note "clients: $failed of $((CLIENTS * CLIENT_CALLS)) submits failed (the first: $first_err)"
  fi
  for ((c = 0; c < CLIENTS; c++)); do cat "$dir/$c"; done | awk 'NF { printf "%.3f\n", $1 / 1000 }' >"$work/res/clients"
  # two clients sent each key: both must have been answered with the same job
  for ((c = 0; c < CLIENTS - half; c++)); do
    [[ -f $dir/$((c + half)).ids ]] || continue
    dup=$((dup + $(paste -d' ' "$dir/$c.ids" "$dir/$((c + half)).ids" | awk '$1 != $2 && $1 != "-" && $2 != "-"' | grep -c . || true)))
  done
  keys=$((half * CLIENT_CALLS))
  jobs=$(group_count bench-clients WAITING)
  jobs=${jobs:-0}
  if ((jobs > keys)); then dup=$((dup > jobs - keys ? dup : jobs - keys)); fi
  if ((jobs < keys)); then missing=$((keys - jobs)); fi
  local p50 p99
  p50=$(awk 'NF' "$work/res/clients" | sort -g | awk '{ a[++n] = $1 } END { i = int(0.5 * n); if (i < 0.5 * n) i++; print a[i] }')
  p99=$(awk 'NF' "$work/res/clients" | sort -g | awk '{ a[++n] = $1 } END { i = int(0.99 * n); if (i < 0.99 * n) i++; print a[i] }')
  row "$CLIENTS clients x $CLIENT_CALLS keyed submits at once (\`gq -g 1 -q --key K true\`, each key from two clients, queue held): time per submit" \
    "$work/res/clients" ms "-" "-"
  row1 "  the same: p99 of the $((CLIENTS * CLIENT_CALLS)) submits" "$(printf '%.1f' "$p99")" ms "-" "-"
  row1 "  the same: duplicates (a key answered with two jobs, or more jobs than keys: $jobs jobs for $keys keys)" "$dup" jobs "0" "$(verdict "$dup" 0)"
  row1 "  the same: all $((CLIENTS * CLIENT_CALLS)) submits, first client started -> last one done" "$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.0f", d / 1000 }')" ms "-" "-"
  ((missing == 0)) || note "clients: $missing of the $keys keys got no job"
  chart "$CLIENTS clients x $CLIENT_CALLS keyed submits at once: p50 per submit" ms low gq "$p50"
  chart "$CLIENTS clients x $CLIENT_CALLS keyed submits at once: p99 per submit" ms low gq "$p99"
  say "  clients: p50 $p50 ms, p99 $p99 ms, $dup duplicates, $jobs jobs for $keys keys"
  stop_daemon
}
