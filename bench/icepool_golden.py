"""Regenerate crates/core/tests/data/icepool_golden.json with icepool.

    pip install icepool==2.1.3
    python3 bench/icepool_golden.py > crates/core/tests/data/icepool_golden.json

Each case names the computation in Tabula's terms and gives icepool's exact
distribution (outcome -> probability as a float from an exact Fraction). The test
crates/core/tests/odds_icepool.rs recomputes every case with tabula_core::odds and
requires agreement to 1e-9.
"""
import json

import icepool
from icepool import Deck, Die, d

def dist(die):
    return {str(k): float(v) for k, v in zip(die.outcomes(), die.probabilities())}

cases = []

def case(name, kind, params, die):
    cases.append({"name": name, "kind": kind, "params": params, "dist": dist(die)})

case("3d6", "sum", {"sides": 6, "n": 3}, 3 @ d(6))
case("1d20+5", "sum_plus", {"sides": 20, "n": 1, "plus": 5}, d(20) + 5)
case("20d6", "sum", {"sides": 6, "n": 20}, 20 @ d(6))
case("4d6kh3", "keep_highest", {"sides": 6, "n": 4, "keep": 3}, d(6).highest(4, 3))
case("2d20kl1", "keep_lowest", {"sides": 20, "n": 2, "keep": 1}, d(20).lowest(2, 1))
case("5d12kh2", "keep_highest", {"sides": 12, "n": 5, "keep": 2}, d(12).highest(5, 2))
case("8d10kl3", "keep_lowest", {"sides": 10, "n": 8, "keep": 3}, d(10).lowest(8, 3))
case("10d6>=5", "count", {"sides": 6, "n": 10, "at_least": 5}, (10 @ (d(6) >= 5)))
case("7d6>=2", "count", {"sides": 6, "n": 7, "at_least": 2}, (7 @ (d(6) >= 2)))
# Draws without replacement from the 104 non-Joker cards of two decks (values 2..14,
# eight of each): the best of k cards.
for k in (1, 3, 5):
    deck = Deck({v: 8 for v in range(2, 15)})
    case(f"best of {k} from 2x52", "best_of_draws", {"values": "2..14 x8", "draws": k},
         deck.deal(k).highest(1).sum())
# Hypergeometric: how many of the 4 aces among 5 cards from 52.
deck = Deck({1: 4, 0: 48})
case("aces in 5 of 52", "hypergeometric", {"deck": 52, "marked": 4, "draws": 5}, deck.deal(5).sum())

print(json.dumps({"icepool": icepool.__version__, "cases": cases}, indent=1))
