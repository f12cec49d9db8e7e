#!/usr/bin/env bash
# Tabula's server against boardgame.io's, side by side in one run, on the same
# load shapes (issue 28, item 2; docs/BENCHMARKS.md, "Tabula against
# boardgame.io"): TABLES tables of four seats, each seat sending its next
# command as soon as the previous one is answered (one client per seat, at
# most 64 clients, each taking its (table, seat) pairs in turn), 4 WebSocket
# followers per table, after ROWS commands already played at every table.
# Prints commands/s, p50/p99 of a command's latency and of a follower's
# (from the command's send to the follower's update), the server's CPU per
# command (utime + stime of /proc/PID/stat over the measured window) and its
# RSS at the end, for both, and Tabula's lead.
#
#   bench/vs_boardgameio.sh                          # every shape, 10 s each
#   SECONDS_EACH=5 SHAPES="1x100 100x1000" bench/vs_boardgameio.sh
#
# SHAPES: TABLESxROWS words (default below). Tabula: the load generator
# crates/server/examples/load.rs, its `--serve` being the site `tabula serve`
# runs, on a fresh SQLite file, with the rate limits raised (at their
# defaults a seat may send 20 commands a second after a burst of 1,200).
# boardgame.io 0.50.2: bench/bgio (its own Server, in-memory storage, and a
# socket.io-client load generator of the same shape), installed here from the
# npm registry. Needs cargo, node (20) and npm. Everything listens on
# 127.0.0.1 and stops when the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH="${SECONDS_EACH:-10}"
SHAPES="${SHAPES:-1x100 1x1000 1x10000 100x100 100x1000 1x100000}"
FOLLOWERS="${FOLLOWERS:-4}"

true
LOAD=/tmp/load-new
(cd bench/bgio && npm install --no-audit --no-fund --silent)

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# start NAME CMD...: run a server printing `serving on http://127.0.0.1:PORT`;
# its base URL goes to $WORK/NAME.base and its pid to $WORK/NAME.pid.
start() {
    local name="$1"
    shift
    "$@" >"$WORK/$name.out" 2>"$WORK/$name.log" &
    local pid=$!
    PIDS+=("$pid")
    echo "$pid" >"$WORK/$name.pid"
    for _ in $(seq 1 300); do
        if grep -q 'serving on' "$WORK/$name.out" 2>/dev/null; then
            grep -o -m1 'http://127.0.0.1:[0-9]*' "$WORK/$name.out" >"$WORK/$name.base"
            return
        fi
        sleep 0.1
    done
    echo "$name did not start: $(cat "$WORK/$name.log")" >&2
    exit 1
}

stop_all() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    PIDS=()
}

# field FILE KEY [LINE-PATTERN]: the number after KEY= on the first line
# matching the pattern (default: KEY=).
field() {
    grep -m1 -- "${3:-$2=}" "$1" 2>/dev/null | grep -o -- "$2=[0-9.]*" | head -n1 | cut -d= -f2 || true
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for shape in $SHAPES; do
    tables="${shape%x*}"
    rows="${shape#*x}"
    echo "== $tables table(s), $rows rows, $SECONDS_EACH s, load average $(cut -d' ' -f1-3 /proc/loadavg)"

    RUST_LOG=warn start tabula "$LOAD" --serve --database-url "sqlite://$WORK/tabula-$shape.db"
    "$LOAD" --url "$(cat "$WORK/tabula.base")" --tables "$tables" --seconds "$SECONDS_EACH" \
        --prefill "$rows" --followers "$FOLLOWERS" --pid "$(cat "$WORK/tabula.pid")" \
        | tee "$WORK/tabula-$shape.txt" || echo "tabula: $shape failed"
    stop_all

    NODE_ENV=production start bgio node bench/bgio/server.js
    node bench/bgio/load.js --url "$(cat "$WORK/bgio.base")" --tables "$tables" \
        --seconds "$SECONDS_EACH" --prefill "$rows" --followers "$FOLLOWERS" \
        --pid "$(cat "$WORK/bgio.pid")" | tee "$WORK/bgio-$shape.txt" || echo "boardgame.io: $shape failed"
    stop_all
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "-" }'; }
echo
echo "| tables x rows | commands/s Tabula / bgio (lead) | command p50 / p99 ms, Tabula | bgio | follower p50 / p99 ms, Tabula | bgio | server CPU ms/command Tabula / bgio (lead) | RSS MiB Tabula / bgio |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for shape in $SHAPES; do
    t="$WORK/tabula-$shape.txt"
    b="$WORK/bgio-$shape.txt"
    tc="$(field "$t" 'commands/s')"; bc="$(field "$b" 'commands/s')"
    tp50="$(field "$t" p50 'commands/s')"; tp99="$(field "$t" p99 'commands/s')"
    bp50="$(field "$b" p50 'commands/s')"; bp99="$(field "$b" p99 'commands/s')"
    tf50="$(field "$t" p50 'follower latency')"; tf99="$(field "$t" p99 'follower latency')"
    bf50="$(field "$b" p50 'follower latency')"; bf99="$(field "$b" p99 'follower latency')"
    tcpu="$(field "$t" 'cpu/command')"; bcpu="$(field "$b" 'cpu/command')"
    trss="$(field "$t" rss)"; brss="$(field "$b" rss)"
    echo "| ${shape/x/ x } | ${tc:--} / ${bc:--} ($(ratio "$tc" "$bc")) | ${tp50:--} / ${tp99:--} | ${bp50:--} / ${bp99:--} | ${tf50:--} / ${tf99:--} | ${bf50:--} / ${bf99:--} | ${tcpu:--} / ${bcpu:--} ($(ratio "$bcpu" "$tcpu")) | ${trss:--} / ${brss:--} |"
done
