"""Record what the bots' evaluations, the turn rankers, the view models and the terminal
drawing give over random games, and compare with an earlier recording: a refactor of those
functions must leave every value bit-identical.

    uv run python tools/eval_fingerprint.py record /tmp/before.json
    uv run python tools/eval_fingerprint.py compare /tmp/before.json

Every game, every standard variant, two player counts, a few seeded random games each; at every
position the registered evaluation for every seat (floats compared by ``repr``), plus a few
evaluations with other weights (the branches the defaults skip); every few positions the turn
ranker's best turns, the view for a seat and a spectator, the layout and the terminal drawing
(kept as digests; ``--full`` keeps their text, ``--drawings`` compares them alone).
``--games`` narrows the run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import meeple
from meeple.bots.knowledge import bot_knowledge
from meeple.core.present import presentation
from meeple.core.registry import games
from meeple.core.state import CHANCE
from meeple.core.view import terminal_score, terminal_text


def _extra_evaluations(name: str) -> list[Callable[[Any, int], float]]:
    """Evaluations with other weights than the registered ones, to reach the other branches."""
    if name == "reefs":
        from meeple.games.reefs.evaluation import make_reefs_evaluation

        return [make_reefs_evaluation(memo=False),
                make_reefs_evaluation(bonus_w=0.0, prop_w=0.0, time_w=0.5, maxd=5, memo=False),
                make_reefs_evaluation(gamma=0.9, coin_w=0.0, treasure_w=2.0, end_w=0.0)]
    if name == "takenokolor":
        from meeple.games.takenokolor.evaluation import Params, make_evaluation

        return [make_evaluation(Params(rho=0.4, self_end=True, deny_share=False)),
                make_evaluation(Params(lookahead=0.5, deny=0.0, end_weight=0.0, free_value=0.0)),
                make_evaluation(Params(option=0.0, product_weight=0.0, area_weight=0.3))]
    if name == "gardens":
        from meeple.games.gardens.evaluation import gardens_evaluation

        return [lambda s, seat: gardens_evaluation(s, seat, weight=0.3)]
    return []


#: ``--full``: keep drawings as their text, not a digest, so a difference can be read.
FULL = False


def _drawing(text: str) -> Any:
    """A terminal drawing as recorded: its text under ``--full`` (tagged, so ``--drawings``
    can compare the drawings alone), else its digest."""
    return {"draw": text} if FULL else _digest(text)


def _drawings_only(rows: list[Any]) -> list[Any]:
    """The drawing entries of a game's rows (``--drawings``: a change of the view's data
    may change the view digests; the drawings must stay the same)."""
    out = []
    for row in rows:
        items = row if isinstance(row, list) and (not row or row[0] not in (
            "layout", "end", "end-view", "end-render", "end-render-all", "end-score")) else row[1:]
        out.append([x for x in items if isinstance(x, dict) and "draw" in x])
    return out


def _digest(obj: Any) -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _stream(info: Any, variant: dict[str, Any], players: int, seed: int, positions: int,
            every: int) -> list[Any]:
    out: list[Any] = []
    s = meeple.new_game(info.name, players=players, seed=seed, **variant)
    rng = random.Random(seed * 7919 + players)
    extras = _extra_evaluations(info.name)
    pres, bots = presentation(info.name), bot_knowledge(info.name)
    if pres.view_layout is not None:
        out.append(("layout", _digest(pres.view_layout(s))))
    k = 0
    while s.to_move is not None and k < positions:
        if s.to_move == CHANCE:
            s.sample_chance()
            continue
        k += 1
        row: list[Any] = [repr(bots.evaluation(s, q)) for q in range(players)]
        row += [repr(e(s, q)) for e in extras for q in range(players)]
        if k % every == 0:
            seat = s.to_move
            if bots.turn_ranker is not None:
                row.append(repr(bots.turn_ranker(s, seat, 4)))
            if pres.view_board is not None:
                row.append(_digest(pres.view_board(s.seen_by(seat), seat)))
                row.append(_digest(pres.view_board(s.seen_by(0), None)))
            other = (seat + 1) % players
            row.append(_drawing(terminal_text(s, seat, seat, False)))
            row.append(_drawing(terminal_text(s, None, None, True)))
            row.append(_drawing(terminal_text(s, seat, other, k % 2 == 0)))
            row.append(_drawing(terminal_score(s, seat, seat, k % 2 == 0) or ""))
        out.append(row)
        moves = list(s.legal_moves())
        s.play(rng.choice(moves))
    if s.to_move is None:
        out.append(("end", [repr(bots.evaluation(s, q)) for q in range(players)]))
        if pres.view_board is not None:
            out.append(("end-view", _digest(pres.view_board(s.seen_by(0), 0))))
        out.append(("end-render", _drawing(terminal_text(s, 0, 0, False))))
        out.append(("end-render-all", _drawing(terminal_text(s, None, None, True))))
        out.append(("end-score", _drawing(terminal_score(s, None, None, True) or "")))
    return out


def record(names: set[str] | None, games_per: int, positions: int, every: int) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for info in games():
        if names and info.name not in names:
            continue
        for variant in info.variants:
            rng = info.player_range(variant)
            counts = sorted({rng[0], min(rng[-1], max(rng[0], 2)), rng[-1]})
            for players in counts:
                for seed in range(games_per):
                    key = f"{info.name} {info.describe_variant(variant)} p{players} s{seed}"
                    result[key] = _stream(info, dict(variant), players, seed, positions, every)
                    print(key, len(result[key]), file=sys.stderr)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("record", "compare"))
    ap.add_argument("path")
    ap.add_argument("--games", nargs="*", help="only these games")
    ap.add_argument("--per", type=int, default=3, help="random games per variant and count")
    ap.add_argument("--positions", type=int, default=400, help="positions per game at most")
    ap.add_argument("--every", type=int, default=7, help="ranker/view/drawing every N positions")
    ap.add_argument("--full", action="store_true",
                    help="keep the terminal drawings as text (a difference prints both)")
    ap.add_argument("--drawings", action="store_true",
                    help="compare the drawings alone (a --full recording)")
    a = ap.parse_args()
    global FULL
    FULL = a.full
    names = set(a.games) if a.games else None
    now = record(names, a.per, a.positions, a.every)
    if a.mode == "record":
        with open(a.path, "w") as f:
            json.dump(now, f)
        print(f"recorded {len(now)} games, {sum(len(v) for v in now.values())} positions")
        return 0
    with open(a.path) as f:
        before = json.load(f)
    now = json.loads(json.dumps(now))
    bad = 0
    for key, rows in now.items():
        old = before.get(key)
        if old is None:
            print("not in the recording:", key)
            bad += 1
            continue
        if a.drawings:
            old, rows = _drawings_only(old), _drawings_only(rows)
        if old != rows:
            bad += 1
            first = next((i for i, (x, y) in enumerate(zip(old, rows, strict=False)) if x != y),
                         min(len(old), len(rows)))
            print(f"DIFFERS: {key} at position {first}")
            if FULL and first < min(len(old), len(rows)):
                for x, y in zip(old[first], rows[first], strict=False):
                    if x != y and isinstance(x, dict):
                        print("--- before\n" + x["draw"] + "\n--- after\n" + y["draw"])
                        break
    print(f"compared {len(now)} games: {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
