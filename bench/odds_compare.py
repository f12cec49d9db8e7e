"""icepool's side of bench/odds_compare.sh: the same exact-odds queries as
crates/cli/examples/odds_queries.rs, each timed cold, then a table of both
times, the ratio and the largest difference between the two answers.

Cold: every timing runs in a fresh Python process (icepool imported first,
outside the timing), so no cache of icepool's survives from an earlier run.
The best of `--runs` such processes is icepool's time (the most favourable to
icepool).

Usage:
    python3 bench/odds_compare.py TABULA_JSON_LINES [--runs N]
    python3 bench/odds_compare.py --one NAME          (one cold timing, JSON)
Needs: pip install icepool==2.1.3
"""

import json
import subprocess
import sys
import time


def dist(die):
    """A die's distribution as (outcome, probability) pairs."""
    out = []
    for o, p in zip(die.outcomes(), die.probabilities()):
        if hasattr(o, "__len__"):  # a tuple or an icepool Vector
            o = tuple(int(x) for x in o)
        else:
            o = int(o)
        out.append((o, float(p)))
    return out


def queries():
    """Name -> a function computing icepool's answer from scratch."""
    import icepool
    from icepool import Die, Vector, d

    q = {}
    for n in (3, 20, 100, 500):
        q[f"{n}d6"] = (lambda n: lambda: dist(n @ d(6)))(n)
    for n, sides, keep in ((4, 6, 3), (8, 6, 3), (20, 6, 5), (20, 10, 5), (50, 6, 10),
                           (100, 20, 10)):
        q[f"{n}d{sides}kh{keep}"] = (
            lambda n, sides, keep: lambda: dist(d(sides).highest(n, keep)))(n, sides, keep)
    q["10d6>=5"] = lambda: dist(10 @ (d(6) >= 5))
    q["50d6 successes and ones"] = lambda: dist(
        50 @ Die([Vector((int(v >= 5), int(v == 1))) for v in range(1, 7)]))

    def sour_grapes():
        # Sour Grapes Check: each die not showing 1 is a success, tokens add,
        # pass on strictly more than the Difficulty.
        s = (6 @ (d(6) != 1)) + 2
        return sum(p for o, p in dist(s) if o > 5)

    q["Sour Grapes check 6 dice + 2 tokens > 5"] = sour_grapes

    def bastards():
        # Best card of each hand from the 104 non-Joker cards (52 strengths,
        # two of each); key // 4 + 2 is the value, key % 4 the suit order;
        # the player's total must beat the Dealer's, ties by suit.
        deck = icepool.Deck({k: 2 for k in range(52)})

        @icepool.multiset_function
        def bests(a, b):
            return a.highest(1).sum(), b.highest(1).sum()

        joint = bests(deck.deal((3, 3)))
        pb, db = 3 + 1, 2
        return sum(p for (kp, kd), p in dist(joint)
                   if (kp // 4 + 2 + pb, kp % 4) > (kd // 4 + 2 + db, kd % 4))

    q["Bastards Skill Hand vs Fate Draw"] = bastards

    def sapio():
        # (Hits, Spares, Spirals) of the twelve Spiral Die faces; Improbable
        # Success rerolls with one more die while every die shows two Hits and
        # that is short of the TN, at most 8 times.
        faces = [(0, 0, 1)] * 2 + [(0, 1, 0)] * 2 + [
            (0, 2, 0), (1, 1, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1), (1, 0, 1), (1, 0, 1), (0, 0, 0)]
        die = Die([Vector(f) for f in faces])

        def p_success(n, tn, rerolls):
            roll = dist(n @ die)
            p = sum(w for o, w in roll if o[0] >= tn)
            if 2 * n < tn and rerolls > 0:
                p_all = sum(w for o, w in roll if o[0] == 2 * n)
                p += p_all * p_success(n + 1, tn, rerolls - 1)
            return p

        return p_success(5, 6, 8)

    q["Sapio 5 dice vs TN 6"] = sapio
    return q


def one(name):
    import icepool  # noqa: F401  (imported before the clock starts)
    f = queries()[name]
    start = time.perf_counter()
    answer = f()
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "answer": answer}))


def max_diff(ours, theirs):
    if isinstance(ours, (int, float)):
        return abs(ours - theirs)
    key = lambda o: tuple(o) if isinstance(o, list) else o
    a = {key(o): p for o, p in ours}
    b = {key(o): p for o, p in theirs}
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def fmt_time(s):
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    if s >= 1e-6:
        return f"{s * 1e6:.2f} µs"
    return f"{s * 1e9:.0f} ns"


def main():
    args = sys.argv[1:]
    if args[:1] == ["--one"]:
        one(args[1])
        return
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    tabula = [json.loads(line) for line in open(args[0]) if line.strip()]
    import icepool
    print(f"icepool {icepool.__version__}, best of {runs} cold processes; "
          f"Tabula: mean of repeated cold computations")
    print()
    print("| query | Tabula | icepool (cold) | icepool / Tabula | max abs difference |")
    print("| --- | ---: | ---: | ---: | ---: |")
    worst = None
    for row in tabula:
        name = row["name"]
        best, answer = None, None
        for _ in range(runs):
            out = subprocess.run([sys.executable, __file__, "--one", name], check=True,
                                 capture_output=True, text=True).stdout
            res = json.loads(out)
            if best is None or res["seconds"] < best:
                best = res["seconds"]
            answer = res["answer"]
        ours = row["ns"] * 1e-9
        ratio = best / ours
        diff = max_diff(row["answer"], answer)
        worst = diff if worst is None else max(worst, diff)
        print(f"| `{name}` | {fmt_time(ours)} | {fmt_time(best)} | {ratio:,.0f}x | {diff:.1e} |",
              flush=True)
    print()
    print(f"largest difference between the answers: {worst:.1e}")


if __name__ == "__main__":
    main()
