# shellcheck shell=bash disable=SC2154 # variables shared with bench/run.sh
# bench/lib/parts-mcp.sh (sourced by bench/run.sh): `gq mcp`'s first answer with the daemon up, as an
# assistant starts it: from starting `gq mcp` (the native client, which relays the session to the
# daemon) to reading its answer to `initialize`. bench/mcp.sh measures the same alone, with more
# detail, beside the server in a JVM of its own (GQ_MCP_SERVER=jvm, the fallback).

part_mcp() {
  local i runs=$RUNS helper=$work/mcp-first.py m
  say "== mcp: gq mcp's first answer (initialize), daemon up"
  command -v python3 >/dev/null || { note "mcp: python3 is needed to time the first answer; skipped"; return 0; }
  ((runs > 20)) && runs=20
  use_instance mcp 1
  start_daemon
  cat >"$helper" <<'PY'
import json, subprocess, sys, time
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
t0 = time.monotonic()
p = subprocess.Popen([sys.argv[1], "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
p.stdin.write((json.dumps(init) + "\n").encode())
answer = json.loads(p.stdout.readline())
t1 = time.monotonic()
assert answer["result"]["serverInfo"]["name"] == "gq", answer
p.stdin.close()
p.wait()
print(f"{(t1 - t0) * 1000:.3f}")
PY
  : >"$work/res/mcp"
  # the first session after a start loads the server's classes: warm up until one is answered
  for ((i = 0; i < 30; i++)); do python3 "$helper" "$gq" >/dev/null 2>&1 && break; sleep 1; done
  for ((i = 0; i < WARMUP; i++)); do python3 "$helper" "$gq" >/dev/null; done
  for ((i = 0; i < runs; i++)); do python3 "$helper" "$gq" >>"$work/res/mcp"; done
  m=$(median_of "$work/res/mcp")
  row "gq mcp: started -> initialize answered (in the daemon, through the native client)" "$work/res/mcp" ms "median <= 300" "$(verdict "$m" 300)"
  chart "gq mcp first answer" ms low gq "$m" 300
}
