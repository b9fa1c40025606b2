# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/common.sh (sourced by bench/run.sh): messages, clocks, statistics, the result files
# and the timing of whole commands.
#
# Result files, all in $work:
#   rows.tsv   the table: label, n, median, p90, p95, min, max, unit, budget, verdict
#   chart.tsv  the figures compared and drawn: group, unit, better (low|high), tool, value, budget
#   notes.txt  one observation a line

say() { printf '%s\n' "$*" >&2; }
die() {
  say "bench: $*"
  if [[ -d ${work-} ]]; then printf '%s\n' "$*" >"$work/last_error"; fi
  exit 1
}
note() { printf '%s\n' "$*" >>"$notes"; say "  note: $*"; }

now_us() {
  if [[ -n ${EPOCHREALTIME-} ]]; then
    local t=${EPOCHREALTIME/[.,]/}
    echo "$t"
  else
    echo $(($(date +%s%N) / 1000))
  fi
}

# ms A_US B_US: B - A in milliseconds, three decimals
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1000 }'; }

# stats FILE: "n median p90 p95 min max" of the numbers in FILE (nearest-rank percentiles)
stats() {
  sort -g "$1" | awk '
    function rank(p,   i) { i = int(p * n); if (i < p * n) i++; if (i < 1) i = 1; return a[i] }
    NF { a[++n] = $1 }
    END {
      if (n == 0) { print "0 - - - - -"; exit }
      med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      printf "%d %.1f %.1f %.1f %.1f %.1f\n", n, med, rank(0.9), rank(0.95), a[1], a[n]
    }'
}

median_of() { stats "$1" | awk '{print $2}'; }
p95_of() { stats "$1" | awk '{print $4}'; }

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

# verdict VALUE LIMIT: "met" when VALUE <= LIMIT
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v + 0 <= l + 0) ? "met" : "NOT met" }'; }

# chart GROUP UNIT BETTER TOOL VALUE [BUDGET]: one figure for the comparison table and the picture.
# GROUP names the measure as the same for every tool; BETTER is low or high.
chart() {
  [[ -n $5 && $5 != - ]] || return 0
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "${6:--}" >>"$chart_tsv"
}

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
      if ((i >= WARMUP)); then ms_between "$t0" "$t1" >>"$out"; fi
    done
  fi
  say "  $key: $(stats "$out" | awk '{printf "n=%s median %s ms, p90 %s ms, min %s ms", $1, $2, $3, $5}')"
}

# wait_for_file FILE SECONDS: until FILE is non-empty; 1 when it is not by then
wait_for_file() {
  local deadline=$((SECONDS + $2))
  until [[ -s $1 ]]; do
    ((SECONDS < deadline)) || return 1
    sleep 0.005
  done
}

# The job body every tool runs for submit -> start: its first act writes the time (ns) to $1.
# shellcheck disable=SC2016 # expanded by the job's sh
stamp_body='date +%s%N >"$0"'

# start_latency KEY FILE_PREFIX SUBMIT_FN: START_RUNS times, after START_GAP s with nothing
# running, notes the time, calls SUBMIT_FN STAMP_FILE (which submits one job running
# `sh -c "$stamp_body" STAMP_FILE`) and waits for the stamp; ms per run into $work/res/KEY.
# IDLE_FN (a function name in $idle_fn) must return once the tool has nothing running.
start_latency() {
  local key=$1 prefix=$2 submit_fn=$3 i t0 stamp
  : >"$work/res/$key"
  for ((i = 1; i <= START_RUNS; i++)); do
    "$idle_fn" || die "$key: the tool still had work running before run $i"
    sleep "$START_GAP"
    stamp=$prefix.$i
    t0=$(now_us)
    "$submit_fn" "$stamp" || die "$key: the submit of run $i failed"
    wait_for_file "$stamp" 60 || die "$key: the job of run $i did not start within 60 s"
    awk -v a="$t0" -v b="$(<"$stamp")" 'BEGIN { printf "%.3f\n", (b / 1000 - a) / 1000 }' >>"$work/res/$key"
  done
  say "  $key: $(stats "$work/res/$key" | awk '{printf "n=%s median %s ms, p95 %s ms", $1, $2, $4}')"
}

# ---- the conditions a part runs under ------------------------------------------------------------
# load1: the 1-minute load average
load1() { cut -d' ' -f1 /proc/loadavg; }

# cpu_ticks: "busy steal total" of all CPUs from /proc/stat (busy includes steal)
cpu_ticks() {
  awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, $9, t; exit }' /proc/stat
}

# cpu_share A B: the machine's CPU use between two cpu_ticks readings, "busy% steal%" of all CPUs
cpu_share() {
  awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[3] - x[3]; if (t <= 0) t = 1
    printf "%.0f %.0f\n", 100 * (y[1] - x[1]) / t, 100 * (y[2] - x[2]) / t }'
}

# proc_ticks: "pid ticks" (utime + stime) of every process, from one read of /proc
proc_ticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk '{ match($0, /.*\) /); n = split(substr($0, RLENGTH + 1), f, " "); if (n >= 13) print $1, f[12] + f[13] }'
}

# proc_desc PID: the process in a few words: its program, and the main class of a JVM
proc_desc() {
  local -a args=()
  mapfile -d '' -t args <"/proc/$1/cmdline" 2>/dev/null || true
  ((${#args[@]})) || { cat "/proc/$1/comm" 2>/dev/null || echo "pid $1"; return 0; }
  local prog=${args[0]##*/} a
  if [[ $prog == java ]]; then
    for a in "${args[@]:1}"; do
      if [[ $a =~ ^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+\.[A-Z][A-Za-z0-9_$]*$ ]]; then prog="java ${a##*.}"; break; fi
    done
  fi
  echo "$prog"
}

# busy_now SECONDS: the processes that used at least 5 % of a core over SECONDS, busiest first,
# as "NAME N%" joined by ", ", each marked "(this run)" when it carries this run's tag; "none"
busy_now() {
  local a b pid pct out=()
  a=$(proc_ticks)
  sleep "$1"
  b=$(proc_ticks)
  while read -r pid pct; do
    [[ $pid == "$BASHPID" || $pid == "$$" ]] && continue
    local mine=""
    if grep -qzxF "GQ_BENCH_TAG=$work" "/proc/$pid/environ" 2>/dev/null; then mine=" (this run)"; fi
    out+=("$(proc_desc "$pid") $pct%$mine")
  done < <(awk -v s="$1" -v hz="$(getconf CLK_TCK)" 'NR == FNR { t[$1] = $2; next }
      ($1 in t) && ($2 - t[$1]) / hz / s >= 0.05 { printf "%s %.0f\n", $1, 100 * ($2 - t[$1]) / hz / s }' \
      <(echo "$a") <(echo "$b") | sort -k2,2nr)
  if ((${#out[@]})); then (IFS=,; echo "${out[*]}" | sed 's/,/, /g'); else echo none; fi
}

# psi_totals: "cpu io" microseconds some task waited for a CPU, and for the disk, since boot
# (pressure stall information); "- -" where the kernel has none
psi_totals() {
  local r c=- i=-
  for r in cpu io; do
    [[ -r /proc/pressure/$r ]] || continue
    local t
    t=$(awk '$1 == "some" { sub(/total=/, "", $5); print $5 }' "/proc/pressure/$r")
    if [[ $r == cpu ]]; then c=$t; else i=$t; fi
  done
  echo "$c $i"
}

# psi_share A B A_US B_US: "cpu% io%" of the time between two psi_totals readings (taken at
# A_US and B_US) in which some task waited for a CPU, and for the disk; "-" where unknown
psi_share() {
  awk -v a="$1" -v b="$2" -v t0="$3" -v t1="$4" 'BEGIN { split(a, x, " "); split(b, y, " "); d = t1 - t0; if (d <= 0) d = 1
    for (i = 1; i <= 2; i++) out[i] = (x[i] == "-" || y[i] == "-") ? "-" : sprintf("%.0f", 100 * (y[i] - x[i]) / d)
    print out[1], out[2] }'
}
