"""Regenerate crates/core/tests/data/dialect_golden.json: the exact
distributions of Roll20 and Foundry VTT spellings, built with icepool from
each roller's documented meaning (issue 30, item 3).

    pip install icepool==2.1.3
    python3 bench/dialect_golden.py > crates/core/tests/data/dialect_golden.json

Each case is built here from the documentation, not from Tabula's code:
Roll20's Dice Reference and Dice Specification (wiki.roll20.net/Dice_Reference)
and Foundry VTT's Dice Modifiers article (foundryvtt.com/article/dice-modifiers)
with its `Die` API reference. Where icepool has no operator for a meaning
(Roll20's penetrating dice, JavaScript's `%` and `Math.round`), the script
builds it from icepool dice with `map`, which enumerates every face.

Explosions follow 20 extra dice per die, as Tabula's rolls do
(`notation::MAX_EXPLOSIONS`); unbounded dice differ from that by less than
1e-15 on every case here.

The test crates/core/tests/notation_dialect_golden.rs parses each expression
in its dialect (`Expr::parse_in`), computes `Expr::odds` and requires
agreement to 1e-9.
"""
import json
import math
import sys
from fractions import Fraction

import icepool
from icepool import Die, Pool, d

DEPTH = 20  # Tabula's MAX_EXPLOSIONS

d4, d6, d8, d10, d12, d20 = d(4), d(6), d(8), d(10), d(12), d(20)


def dF():
    return Die([-1, 0, 1])


def total(n, die):
    """The sum of n dice."""
    return n @ die


def keep(n, die, k, highest=True):
    pool = die.pool(n)
    return (pool.highest(k) if highest else pool.lowest(k)).sum()


def drop(n, die, k, highest=False):
    """Drop the k lowest (or highest): keep the rest."""
    return keep(n, die, n - k, highest=not highest)


def count(n, die, test):
    """Successes: dice whose face passes."""
    return n @ die.map(lambda v: 1 if test(v) else 0)


def successes_less_failures(n, die, ok, fail):
    return n @ die.map(lambda v: (1 if ok(v) else 0) - (1 if fail(v) else 0))


def explode(die, faces, depth=DEPTH):
    return die.explode(faces, depth=depth)


def penetrate(die, faces, depth=DEPTH):
    """Roll20's penetrating dice (HackMaster): a die showing a face of
    `faces` rolls again, the new die counting one less than its face and
    exploding on its face, up to `depth` extra dice."""

    def tail(k):
        if k == 0:
            return die - 1
        nxt = tail(k - 1)
        return die.map(lambda v: (v - 1) + nxt if v in faces else v - 1)

    rest = tail(depth - 1)
    return die.map(lambda v: v + rest if v in faces else v)


def floor_div(a, b):
    return icepool.map(lambda x, y: math.floor(Fraction(x, y)), a, b)


def ceil_div(a, b):
    return icepool.map(lambda x, y: math.ceil(Fraction(x, y)), a, b)


def round_div(a, b):
    # JavaScript's Math.round: the nearest integer, a half up.
    return icepool.map(lambda x, y: math.floor(Fraction(x, y) + Fraction(1, 2)), a, b)


def js_rem(a, b):
    # JavaScript's %: the sign of the dividend.
    return icepool.map(lambda x, y: int(math.fmod(x, y)), a, b)


def clamp_min(die, m):
    return die.map(lambda v: max(v, m))


def clamp_max(die, m):
    return die.map(lambda v: min(v, m))


def at_least(t):
    return lambda v: v >= t


def at_most(t):
    return lambda v: v <= t


def above(t):
    return lambda v: v > t


def below(t):
    return lambda v: v < t


def equal(t):
    return lambda v: v == t


R, F = "roll20", "foundry"

# (dialect, expression, what it covers, icepool die of the documented meaning)
CASES = [
    # Roll20: exploding dice (Exploding Dice; `>` is "greater than or equal").
    (R, "8d6!", "explode on the highest face", lambda: total(8, explode(d6, [6]))),
    (R, "3d6!>4", "explode on 4 or more", lambda: total(3, explode(d6, [4, 5, 6]))),
    (R, "3d6!3", "explode on a 3", lambda: total(3, explode(d6, [3]))),
    (R, "2d10!<2", "explode on 2 or less", lambda: total(2, explode(d10, [1, 2]))),
    (R, "1d4! + 2", "explode, then add", lambda: explode(d4, [4]) + 2),
    # Compounding (Shadowrun): one die holds its chain's sum.
    (R, "5d6!!", "compounding, summed", lambda: total(5, explode(d6, [6]))),
    (R, "3d6!!>5", "compounding on 5 or more", lambda: total(3, explode(d6, [5, 6]))),
    (R, "4d6!!kh1", "the highest compounded die", lambda: keep(4, explode(d6, [6]), 1)),
    (R, "3d6!!k2", "keep two compounded dice", lambda: keep(3, explode(d6, [6]), 2)),
    (R, "4d4!!dl1", "drop the lowest compounded die", lambda: drop(4, explode(d4, [4]), 1)),
    # Penetrating (HackMaster).
    (R, "1d6!p", "penetrating", lambda: penetrate(d6, [6])),
    (R, "5d6!p", "five penetrating dice", lambda: total(5, penetrate(d6, [6]))),
    (R, "2d6!p>5", "penetrating on 5 or more", lambda: total(2, penetrate(d6, [5, 6]))),
    (R, "1d20!p + 3", "penetrating d20 plus 3", lambda: penetrate(d20, [20]) + 3),
    # Keep / drop shorthand.
    (R, "4d6k3", "k keeps the highest", lambda: keep(4, d6, 3)),
    (R, "4d6d1", "d drops the lowest", lambda: drop(4, d6, 1)),
    (R, "8d10k4", "keep 4 of 8", lambda: keep(8, d10, 4)),
    (R, "2d20kh", "kh without a number: one", lambda: keep(2, d20, 1)),
    (R, "2d20kl1", "keep the lowest", lambda: keep(2, d20, 1, highest=False)),
    (R, "4d6dl", "dl without a number: one", lambda: drop(4, d6, 1)),
    (R, "5d8dh2", "drop the two highest", lambda: drop(5, d8, 2, highest=True)),
    # Rerolling: `r` until the die no longer matches, `ro` once.
    (R, "3d6r1", "reroll 1s until", lambda: total(3, d6.reroll([1], depth="inf"))),
    (R, "2d8r<2", "reroll at most 2 until", lambda: total(2, d8.reroll([1, 2], depth="inf"))),
    (R, "2d8r8r2", "two reroll points", lambda: total(2, d8.reroll([8, 2], depth="inf"))),
    (R, "2d8ro<2", "reroll once at most 2", lambda: total(2, d8.reroll([1, 2], depth=1))),
    (R, "1d20ro1", "reroll a 1 once", lambda: d20.reroll([1], depth=1)),
    (R, "4d6r1k3", "reroll 1s, keep 3", lambda: keep(4, d6.reroll([1], depth="inf"), 3)),
    # Target numbers: `>` is at least, `<` at most.
    (R, "10d10>7", "successes at least 7", lambda: count(10, d10, at_least(7))),
    (R, "6d6<2", "successes at most 2", lambda: count(6, d6, at_most(2))),
    (R, "5d10=10", "successes equal to 10", lambda: count(5, d10, equal(10))),
    (R, "10d10>7f1", "failures subtract", lambda: successes_less_failures(10, d10, at_least(7), equal(1))),
    (R, "3d6>3f<2", "failures at most 2", lambda: successes_less_failures(3, d6, at_least(3), at_most(2))),
    (R, "4d6k3>4", "successes among the kept", None),
    (R, "6d10!>8", "exploding successes", None),
    # Critical marks do not change the total.
    (R, "1d20cs>18 + 5", "critical success marks", lambda: d20 + 5),
    (R, "1d20cf<3cs20", "both marks", lambda: d20),
    # Grouped rolls.
    (R, "{4d6+3, 2d8}kh1", "the higher of two totals", lambda: icepool.highest(total(4, d6) + 3, total(2, d8))),
    (R, "{1d20, 1d20}kl1", "disadvantage as a group", lambda: icepool.lowest(d20, d20)),
    (R, "{3d6, 2d8, 1d12}kh2", "two highest totals of three", lambda: Pool([total(3, d6), total(2, d8), d12]).highest(2).sum()),
    (R, "{1d4, 1d6, 1d8}dl1", "drop the lowest total", lambda: Pool([d4, d6, d8]).highest(2).sum()),
    (R, "{4d6, 3d8}>10", "totals at least 10", lambda: (total(4, d6) >= 10) + (total(3, d8) >= 10)),
    (R, "{1d20+4, 1d20+4, 1d20+4}>15", "three attacks at least 15", lambda: 3 @ ((d20 + 4) >= 15)),
    # Math functions.
    (R, "floor(1d6/2)", "floor of a quotient", lambda: floor_div(d6, Die([2]))),
    (R, "ceil(3d6/2) + 1", "ceil of a quotient", lambda: ceil_div(total(3, d6), Die([2])) + 1),
    (R, "round(1d10/4)", "round half up", lambda: round_div(d10, Die([4]))),
    (R, "round((1d6-4)/2)", "round of a negative half", lambda: round_div(d6 - 4, Die([2]))),
    (R, "floor((2d6-7)/3)", "floor of a negative quotient", lambda: floor_div(total(2, d6) - 7, Die([3]))),
    (R, "abs(1d6-1d6)", "absolute difference", lambda: (d6 - d6).map(abs)),
    (R, "(1d6-4) % 3", "JavaScript's remainder", lambda: js_rem(d6 - 4, Die([3]))),
    (R, "2d6 + 1d4 - 2", "plain arithmetic", lambda: total(2, d6) + d4 - 2),
    (R, "4dF + 1", "Fate dice", lambda: total(4, dF()) + 1),
    # Foundry: explode (`x`), explode once (`xo`).
    (F, "1d6x", "explode on the highest", lambda: explode(d6, [6])),
    (F, "3d6x6", "explode on a 6", lambda: total(3, explode(d6, [6]))),
    (F, "5d10x>=9", "explode on 9 or more", lambda: total(5, explode(d10, [9, 10]))),
    (F, "2d10x>8", "explode above 8 (strict)", lambda: total(2, explode(d10, [9, 10]))),
    (F, "2d6xo", "explode once", lambda: total(2, explode(d6, [6], depth=1))),
    (F, "4d6xo>4", "explode once above 4", lambda: total(4, explode(d6, [5, 6], depth=1))),
    (F, "1d8xo + 2", "explode once then add", lambda: explode(d8, [8], depth=1) + 2),
    # Rerolls: `r` once (the lowest face by default), `rr` recursive.
    (F, "1d20r", "reroll a 1 once", lambda: d20.reroll([1], depth=1)),
    (F, "2d6r<3", "reroll below 3 once", lambda: total(2, d6.reroll([1, 2], depth=1))),
    (F, "1d20rr", "reroll 1s recursively", lambda: d20.reroll([1], depth="inf")),
    (F, "3d8rr<=2", "reroll at most 2 recursively", lambda: total(3, d8.reroll([1, 2], depth="inf"))),
    (F, "4d6r1kh3", "reroll once, keep 3", lambda: keep(4, d6.reroll([1], depth=1), 3)),
    # Keep and drop.
    (F, "2d20kh", "advantage", lambda: keep(2, d20, 1)),
    (F, "2d20kl", "disadvantage", lambda: keep(2, d20, 1, highest=False)),
    (F, "2d20k", "k keeps the highest one", lambda: keep(2, d20, 1)),
    (F, "4d6k3", "keep 3", lambda: keep(4, d6, 3)),
    (F, "4d6d", "d drops the lowest one", lambda: drop(4, d6, 1)),
    (F, "5d6dh2", "drop the two highest", lambda: drop(5, d6, 2, highest=True)),
    # Minimum, maximum.
    (F, "3d6min2", "each die at least 2", lambda: total(3, clamp_min(d6, 2))),
    (F, "3d6max5", "each die at most 5", lambda: total(3, clamp_max(d6, 5))),
    (F, "2d10min3max8", "both", lambda: total(2, clamp_max(clamp_min(d10, 3), 8))),
    # Counting successes and failures.
    (F, "10d6cs>4", "count above 4 (strict)", lambda: count(10, d6, above(4))),
    (F, "10d6cs>=5", "count at least 5", lambda: count(10, d6, at_least(5))),
    (F, "6d10cf<3", "count failures below 3", lambda: count(6, d10, below(3))),
    (F, "10d6cs>=5df=1", "deduct failures", lambda: successes_less_failures(10, d6, at_least(5), equal(1))),
    (F, "5d10cs>=8df<=2", "deduct failures at most 2", lambda: successes_less_failures(5, d10, at_least(8), at_most(2))),
    (F, "4d6kh3cs>=4", "count among the kept", None),
    # Dice pools.
    (F, "{1d20, 1d20}kh", "advantage as a pool", lambda: icepool.highest(d20, d20)),
    (F, "{4d6, 3d8}kh", "the higher total", lambda: icepool.highest(total(4, d6), total(3, d8))),
    (F, "{2d6, 1d12, 3d4}kl2", "two lowest totals", lambda: Pool([total(2, d6), d12, total(3, d4)]).lowest(2).sum()),
    (F, "{4d6, 3d8}cs>10", "totals above 10", lambda: (total(4, d6) > 10) + (total(3, d8) > 10)),
    (F, "{3d6+3}cs>=12", "a pool of one total", lambda: (total(3, d6) + 3) >= 12),
    # Functions and arithmetic.
    (F, "floor(2d6 / 3)", "floor", lambda: floor_div(total(2, d6), Die([3]))),
    (F, "ceil(1d8 / 3) + 1d4", "ceil plus a die", lambda: ceil_div(d8, Die([3])) + d4),
    (F, "round(3d6 / 4)", "round", lambda: round_div(total(3, d6), Die([4]))),
    (F, "round(1d6 / 1d4)", "round of a quotient of dice", lambda: round_div(d6, d4)),
    (F, "1d20 + 5 # attack", "a comment", lambda: d20 + 5),
    (F, "(2d6 - 7) % 4", "JavaScript's remainder", lambda: js_rem(total(2, d6) - 7, Die([4]))),
    # Variable dice (issue 30, item 3): the count and the sides first, one
    # number of sides for every die of the group.
    (R, "(2+1)d6", "a computed count", lambda: 3 @ d6),
    (R, "2d(1d4) + 1", "sides from a die, shared by both dice", lambda: d4.map(lambda s: 2 @ d(s)) + 1),
    (R, "(1d4)d6", "a count from a die", lambda: d4 @ d6),
    (F, "(1d4)d(1d6)", "count and sides from dice", lambda: d4.map(lambda c: d6.map(lambda s: c @ d(s)))),
    (F, "(1d3 - 1)d8 + 2", "a count that can be 0", lambda: (d(3) - 1) @ d8 + 2),
    # Modifiers on variable dice (issue 30, item 3): the group rolled as
    # written with the count and sides worked out (Roll20's computed dice,
    # Foundry's parenthetical terms).
    (R, "2d(1d4)kh1", "keep the higher of two dice, sides from a d4", lambda: d4.map(lambda s: keep(2, d(s), 1))),
    (F, "2d(1d4)kh1", "keep the higher of two dice, sides from a d4", lambda: d4.map(lambda s: keep(2, d(s), 1))),
    (R, "(2+1)d6!", "a computed count, exploding", lambda: total(3, explode(d6, [6]))),
    (F, "(2+1)d6x", "a computed count, exploding", lambda: total(3, explode(d6, [6]))),
    (R, "(1d3)d4!", "a count from a die, exploding", lambda: d(3) @ explode(d4, [4])),
    (R, "2d(1d4+1)!>4", "sides from a die, exploding on 4 or more", lambda: (d4 + 1).map(lambda s: total(2, explode(d(s), list(range(4, s + 1)))))),
    (R, "(1d2+1)d4>3", "successes among a computed count", lambda: (d(2) + 1).map(lambda c: count(c, d4, at_least(3)))),
    (R, "2d(1d3+1)r1", "reroll 1s until, sides from a die", lambda: (d(3) + 1).map(lambda s: total(2, d(s).reroll([1], depth="inf")))),
    (F, "2d(1d3+1)r1", "reroll 1s once, sides from a die", lambda: (d(3) + 1).map(lambda s: total(2, d(s).reroll([1], depth=1)))),
    (R, "(1d3)d3!!", "compounding, a count from a die", lambda: d(3) @ explode(d(3), [3])),
    (R, "(1d3)d3!p", "penetrating, a count from a die", lambda: d(3) @ penetrate(d(3), [3])),
    (F, "(1d3)d4xo", "explode once, a count from a die", lambda: d(3) @ explode(d4, [4], depth=1)),
    (F, "(1d4)d6min3", "a minimum, a count from a die", lambda: d4 @ clamp_min(d6, 3)),
    (R, "2d(1d4)>3f1", "successes less failures, sides from a die", lambda: d4.map(lambda s: successes_less_failures(2, d(s), at_least(3), equal(1)))),
    (R, "(1d2)d(1d3)kl1", "keep the lowest, count and sides from dice", lambda: d(2).map(lambda c: d(3).map(lambda s: keep(c, d(s), 1, highest=False)))),
    (F, "(1d3)d4cs>=3df=1", "successes less failures, a count from a die", lambda: d(3).map(lambda c: successes_less_failures(c, d4, at_least(3), equal(1)))),
    (F, "(1d4)d6dl1 + 1", "drop the lowest, a count from a die", lambda: d4.map(lambda c: keep(c, d6, c - 1)) + 1),
    (R, "2d(1d6)k1", "Roll20's `k1`, sides from a die", lambda: d6.map(lambda s: keep(2, d(s), 1))),
]


def kept_successes(n, die, k, test):
    """Successes among the k highest of n dice."""
    return die.pool(n).highest(k).expand().map(lambda vs: sum(1 for v in vs if test(v)), star=False)


def exploding_successes(n, die, faces, test):
    """Successes over every die an explosion rolls: each chain counts the
    dice of it that pass, up to DEPTH extra dice."""

    def chain(k):
        if k == 0:
            return die.map(lambda v: 1 if test(v) else 0)
        nxt = chain(k - 1)
        return die.map(lambda v: (1 if test(v) else 0) + (nxt if v in faces else 0))

    return n @ chain(DEPTH)


SPECIAL = {
    "4d6k3>4": lambda: kept_successes(4, d6, 3, at_least(4)),
    "6d10!>8": None,  # replaced below
    "4d6kh3cs>=4": lambda: kept_successes(4, d6, 3, at_least(4)),
}


def main():
    out = []
    for dialect, text, covers, build in CASES:
        if build is None:
            if text == "6d10!>8":
                # Roll20: `!>8` is the explosion's compare point (8 or
                # more); the successes need a target after it.
                text = "6d10!>8>7"
                build = lambda: exploding_successes(6, d10, [8, 9, 10], at_least(7))
            else:
                build = SPECIAL[text]
        die = build()
        dist = {}
        for k, p in zip(die.outcomes(), die.probabilities()):
            if p != 0:
                key = str(int(k))  # comparisons give True/False
                dist[key] = dist.get(key, 0.0) + float(Fraction(p))
        out.append({"dialect": dialect, "expression": text, "covers": covers, "dist": dist})
    json.dump({"icepool": icepool.__version__, "cases": out}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
