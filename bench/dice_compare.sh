#!/bin/sh
# Tabula's dice notation against the Rust crate caith and Python's d20 on the
# same expressions, in one run: parse + roll, and roll of a parsed expression.
#
#   pip install d20==1.1.2
#   sh bench/dice_compare.sh [seconds-per-measurement]     (default 2)
#
# Rates are per second of CPU time (the thread's time on a core), so other
# work on a shared machine slows them less than wall time would.
# Builds bench/caith (its own small workspace, not part of Tabula's) in release,
# into $CARGO_TARGET_DIR when it is set (bench/caith/target otherwise).
set -eu
seconds=${1:-2}
cd "$(dirname "$0")/.."
cargo build --release --quiet --manifest-path bench/caith/Cargo.toml
target=${CARGO_TARGET_DIR:-bench/caith/target}
table=$(mktemp)
trap 'rm -f "$table"' EXIT
"$target/release/dice-bench" "$seconds" | tee "$table"
echo
python3 bench/compare_d20.py "$seconds" --tabula "$table"
