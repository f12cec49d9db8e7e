"""Python d20's throughput on the same expressions as Tabula's dice benchmark.

Rolls each expression with ``d20.roll`` in a loop for a fixed time and prints
rolls per second and dice per second, in the same shape as
``cargo run --release -p tabula-core --example dice_throughput``.

d20 caches parsed expressions (an LFU cache of 256 in its Roller), so a repeated
``d20.roll(text)`` mostly measures rolling and stringifying; Tabula's example
parses every time.

Usage: python3 bench/compare_d20.py [seconds-per-expression]   (default 2)
Needs: pip install d20
"""

import sys
import time

import d20

# (expression, dice per roll)
EXPRESSIONS = [("10d6>=5", 10), ("4d6kh3", 4), ("1d20+5", 1)]


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print("engine: python d20 (d20.roll each time; parse cached by d20)")
    print(f"{'expr':<10} {'rolls':>12} {'rolls/s':>16} {'dice/s':>16}")
    for text, dice in EXPRESSIONS:
        rolls = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(256):
                d20.roll(text)
            rolls += 256
        elapsed = time.perf_counter() - start
        per_sec = rolls / elapsed
        print(f"{text:<10} {rolls:>12} {per_sec:>16.0} {per_sec * dice:>16.0}")


if __name__ == "__main__":
    main()
