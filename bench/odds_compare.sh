#!/bin/sh
# Tabula's exact odds against icepool 2.1.3 on the same queries, in one run on
# one machine: 3d6, 20d6, 100d6, 4d6kh3, 8d6kh3, 20d6kh5, 20d10kh5, 50d6kh10,
# 100d20kh10, 500d6, 10d6>=5, the joint of successes and ones over 50d6, a
# Sour Grapes Check with tokens, a Bastards Skill Hand against a Fate Draw and
# a Sapio pool against a TN. Prints both times, the ratio and the largest
# difference between the two answers.
#
#   sh bench/odds_compare.sh [seconds-per-query] [icepool-runs]   (defaults 0.3, 3)
#
# Tabula: crates/cli/examples/odds_queries.rs in release, each query computed
# from scratch over and over for the given seconds (mean time). icepool: one
# fresh Python process per timing (cold caches), best of the given runs; see
# bench/odds_compare.py. icepool is installed into a virtual environment under
# $ICEPOOL_VENV (default: icepool-2.1.3 in the temporary directory) when
# missing.
set -eu
seconds=${1:-0.3}
runs=${2:-3}
cd "$(dirname "$0")/.."
venv=${ICEPOOL_VENV:-${TMPDIR:-/tmp}/icepool-2.1.3}
if ! "$venv/bin/python" -c 'import icepool; assert icepool.__version__ == "2.1.3"' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet icepool==2.1.3
fi
cargo build --release --quiet -p tabula --example odds_queries
table=$(mktemp)
trap 'rm -f "$table"' EXIT
./target/release/examples/odds_queries "$seconds" > "$table"
"$venv/bin/python" bench/odds_compare.py "$table" --runs "$runs"
