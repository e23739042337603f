"""Fit Pergola's value model: the points a garden still gains by the end of the game.

    uv run python tools/fit_pergola_value.py RECORDS.jsonl ...

Replays every multi-seat Pergola game in the files (``meeple tournament --records``) and, at
the start of every seat's turn, takes for each seat its score so far, its turns left and the
raw credit terms of :mod:`meeple.games.pergola.evaluation` (``credit_terms``). The target is what the
seat's score still rose by to the end of its game. Least squares fits, per term, a weight and a
weight per unit of ``much`` (the share of the game left), plus a constant per number of turns
left (the points an average turn still brings). Half the games (odd seeds) are held out to
report the fit against the hand-tuned credit. The coefficients printed are what
``AHEAD`` in ``meeple.games.pergola.evaluation`` holds (the mean of what a seat still gained beyond the
hand-tuned credit, per number of turns left); the fitted model is printed for comparison.
Gzipped files (``.jsonl.gz``) are read too, so the kept three- and four-seat records work:

    uv run python tools/fit_pergola_value.py docs/research/records/strength/pergola-[34]p.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
from typing import Any

import numpy as np

import meeple
from meeple.games.pergola.evaluation import TERMS, credit_terms, turns_left
from meeple.games.pergola.rules import score_garden


def samples(rec: dict[str, Any]) -> list[tuple[int, int, list[float], float, float]]:
    """(seed, turns left, credit terms, points still gained to the end, hand-tuned credit,
    much) per seat and turn start."""
    state = meeple.new_game("pergola", players=rec["players"], seed=rec["seed"], **rec.get("variant", {}))
    rows: list[Any] = []
    last = None
    for text in rec["moves"]:
        mover = state.to_move
        if mover is not None and mover >= 0 and (state.turn, mover) != last:
            last = (state.turn, mover)
            for seat in range(state.players):
                left = turns_left(state, seat)
                if left <= 0:
                    continue
                g = state.gardens[seat]
                score = float(score_garden(g, state.c.leaf_colour).total)
                terms = credit_terms(state, g, left)
                soon, much = min(1.0, left / 3.0), left / state.c.turns
                credit = sum(w * (soon if f == "soon" else much) * t
                             for (_n, w, f), t in zip(TERMS, terms, strict=True))
                rows.append((seat, left, terms, score, credit, much))
        state.play(text)
    finals = [float(s.total) for s in state.scores()]
    return [(rec["seed"], left, terms, finals[seat] - score, credit, much)
            for seat, left, terms, score, credit, much in rows]


def design(left: int, terms: list[float], much: float, turns: int) -> list[float]:
    onehot = [1.0 if left == k else 0.0 for k in range(1, turns + 1)]
    return onehot + list(terms) + [t * much for t in terms]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    data = []
    for path in args.files:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                rec = json.loads(line)
                if rec.get("game") == "pergola" and rec["players"] >= 2 and not rec.get("variant"):
                    data.extend(samples(rec))
    turns = 15
    x = np.array([design(left, terms, much, turns) for _s, left, terms, _y, _c, much in data])
    y = np.array([d[3] for d in data])
    credit = np.array([d[4] for d in data])
    train = np.array([d[0] % 2 == 0 for d in data])
    coef, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    test = ~train

    def r2(pred: np.ndarray) -> float:
        res = y[test] - pred
        return 1.0 - float(np.sum(res * res)) / float(np.sum((y[test] - y[test].mean()) ** 2))

    # the hand-tuned credit with the best constant per turns left, for comparison
    xc = np.array([[1.0 if d[1] == k else 0.0 for k in range(1, turns + 1)] + [d[4]] for d in data])
    cc, *_ = np.linalg.lstsq(xc[train], y[train], rcond=None)
    print(f"samples {len(y)} (train {int(train.sum())}, test {int(test.sum())})")
    print(f"held-out R^2: fitted model {r2(x[test] @ coef):.3f}; "
          f"hand-tuned credit + constants {r2(xc[test] @ cc):.3f}")
    print(f"credit coefficient when fitted: {float(cc[-1]):.3f}")
    # what the evaluation adds: the mean of (points still gained - hand-tuned credit) per
    # number of turns left, the credit's own weight kept at 1 so greedy's choices stay as they are
    lefts = np.array([d[1] for d in data])
    ahead = tuple(round(float(np.mean((y - credit)[lefts == k])), 2) if np.any(lefts == k) else 0.0
                  for k in range(1, turns + 1))
    xa = np.array([ahead[d[1] - 1] for d in data]) + credit
    print(f"held-out R^2: hand-tuned credit + AHEAD {r2(xa[test]):.3f}")
    print("AHEAD =", ahead)
    full, *_ = np.linalg.lstsq(x, y, rcond=None)
    consts = [round(float(v), 3) for v in full[:turns]]
    base = [round(float(v), 3) for v in full[turns:turns + len(TERMS)]]
    per_much = [round(float(v), 3) for v in full[turns + len(TERMS):]]
    print("PER_LEFT =", tuple(consts))
    print("TERM_WEIGHTS =", tuple(zip(base, per_much, strict=True)))


if __name__ == "__main__":
    main()
