"""Pinned per-seat views: for every game, variant and seat count, a seeded random playout and a
few positions along it (its start, a position where chance is pending, some random ones, its
end), and for each position every seat's view and the spectator's, with and without the
terminal text, as ``seat_view(...).model_dump(mode="json", by_alias=True)`` made them on the
code this file was first run on (before ``view_data`` shared the public parts between viewers,
issue 50). ``tests/core/view_snapshots.json`` keeps a digest of each view's JSON text (the
order of its keys included), not the views themselves: ``test_view_data`` makes the views again
and compares the digests.

Regenerate (only when a view changes on purpose, and say why in the commit):
``uv run python -m tests.core.view_snapshots``. To see what differs in one view, print
:func:`views` of its case on the commit before and after and compare the two.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import meeple
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.view import LOG_TAIL, LogLine, log_lines, seat_view

DATA = Path(__file__).with_name("view_snapshots.json")

#: Random positions taken along each playout, besides its start, its end and one with chance
#: pending.
RANDOM_POSITIONS = 6


def cases() -> list[tuple[str, str, dict[str, Any], int]]:
    """Every game, variant and seat count the registry offers: (case id, game, variant,
    players), as ``tests/conformance/cases.py`` names them."""
    out = []
    for info in meeple.games():
        for variant in info.variants:
            for players in info.player_range(variant):
                ident = f"{info.name}-{info.describe_variant(variant)}-{players}p".replace(" ", "")
                out.append((ident, info.name, dict(variant), players))
    return out


def playout(game: str, variant: dict[str, Any], players: int, seed: int) -> list[State[Any]]:
    """Every position of a seeded random playout to the end, the first one included."""
    state = meeple.new_game(game, players=players, seed=seed, **variant)
    rng = Rng(seed)
    out = [state.clone()]
    while not state.is_over:
        if state.to_move == CHANCE:
            state.sample_chance(rng)
        else:
            state.play(rng.choice(state.legal_moves()), check=False)
        out.append(state.clone())
    return out


def positions(case: str, game: str, variant: dict[str, Any],
              players: int) -> list[tuple[int, State[Any]]]:
    """The pinned positions of a case, as (number of moves played, state)."""
    seed = zlib.crc32(case.encode())
    states = playout(game, variant, players, seed)
    last = len(states) - 1
    rng = Rng(seed + 1)
    picked = {0, last, *(rng.randbelow(last + 1) for _ in range(RANDOM_POSITIONS))}
    chance = [i for i in range(last // 2, last) if states[i].to_move == CHANCE]
    if chance:
        picked.add(chance[0])
    return [(i, states[i]) for i in sorted(picked)]


def log_for(state: State[Any], k: int) -> tuple[list[LogLine] | None, int]:
    """The log a view of the ``k``-th pinned position of a case is given, and its tail: made
    from the moves by the view itself for the first, else with something said after each
    move; every other position keeps 5 lines."""
    if k == 0:
        return None, LOG_TAIL
    said = [[f"said {i}"] * (i % 3) for i in range(len(state.history))]
    return log_lines(state, said), 5 if k % 2 else LOG_TAIL


def viewers(state: State[Any]) -> list[int | None]:
    """Every seat and the spectator."""
    return [*range(state.players), None]


def key(viewer: int | None, text: bool) -> str:
    return f"{viewer}/{'text' if text else 'plain'}"


def digest(data: Any) -> str:
    """A short digest of ``data``'s JSON text (its keys' order counts)."""
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:24]


def views(state: State[Any], k: int) -> dict[str, dict[str, Any]]:
    """Every view of a pinned position, as ``seat_view`` makes it, by :func:`key`."""
    log, tail = log_for(state, k)
    return {key(v, text): seat_view(state, v, log, tail, text).model_dump(mode="json",
                                                                            by_alias=True)
            for v in viewers(state) for text in (False, True)}


def snapshot() -> dict[str, Any]:
    """The digests of every view of every case."""
    out: dict[str, Any] = {}
    for case, game, variant, players in cases():
        pinned = positions(case, game, variant, players)
        out[case] = {str(i): {"moves": digest([str(m) for _, m in state.log()]),
                              "views": {k: digest(d) for k, d in views(state, n).items()}}
                     for n, (i, state) in enumerate(pinned)}
    return out


def main() -> None:
    DATA.write_text(json.dumps(snapshot(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
