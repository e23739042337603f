"""R2: the engine plays any valid graph, not only square lattices: random sheets with
diagonals, long segments, holes, whirlpools and propellers are played to the end by random
seats; no decision inside a turn is ever a dead end, and the recount agrees."""

from __future__ import annotations

from math import gcd
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.games.reefs.rules import ReefsState
from tests.conformance.recount_reefs import recount

COLOURS = ("orange", "red", "blue", "green", "purple", "neutral")


def random_sheet(rng: Rng) -> dict[str, Any]:
    w, h = 3 + rng.randbelow(5), 3 + rng.randbelow(5)
    cells = [(x, y) for y in range(h) for x in range(w) if rng.random() > 0.15]
    ids = {c: f"s{i}" for i, c in enumerate(cells)}
    conns: list[list[str]] = []
    used_dirs: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for a in cells:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1), (2, 0), (0, 2), (2, 1)):
            b = (a[0] + dx, a[1] + dy)
            if b not in ids or rng.random() < 0.3:
                continue
            g = gcd(dx, dy)
            d = (dx // g, dy // g)
            if (a, d) in used_dirs or (b, (-d[0], -d[1])) in used_dirs:
                continue
            used_dirs.add((a, d))
            used_dirs.add((b, (-d[0], -d[1])))
            conns.append([ids[a], ids[b]])
    touched = sorted({s for c in conns for s in c})
    if len(touched) < 4:
        return random_sheet(rng)
    rng.shuffle(touched)
    n_entries = 1 + rng.randbelow(min(5, len(touched) // 3 + 1))
    entries, rest = touched[:n_entries], touched[n_entries:]
    treasures, coins, whirls, props = [], [], [], []
    for sid in rest:
        r = rng.randbelow(10)
        if r < 3:
            treasures.append({"space": sid, "colour": COLOURS[rng.randbelow(6)],
                              "value": 1 + rng.randbelow(3)})
        elif r < 5:
            coins.append(sid)
        elif r == 5:
            whirls.append(sid)
        elif r == 6:
            props.append(sid)
    rows = {}
    for c in COLOURS[:5]:
        n = 1 + rng.randbelow(6)
        rows[c] = {"values": [i * 2 + 1 for i in range(n)], "grey": rng.randbelow(n + 1)}
    return {
        "name": "random", "spaces": [{"id": ids[c], "x": c[0], "y": c[1]} for c in cells],
        "connections": conns, "entry_points": entries, "treasures": treasures, "coins": coins,
        "whirlpools": whirls, "propellers": props, "treasure_rows": rows,
        "coin_row": {"values": [1, 2, 4, 7][: 1 + rng.randbelow(4)]},
    }


@pytest.mark.parametrize("seed", range(40))
def test_random_graphs_play_to_the_end_without_dead_ends(seed: int) -> None:
    rng = Rng(seed)
    sheet = random_sheet(rng)
    players = 1 + seed % 4
    s = meeple.new_game("reefs", players=players, seed=seed, sheet=sheet, level=1 + seed % 3)
    assert isinstance(s, ReefsState)
    n = 0
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
            continue
        moves = s.legal_moves()
        assert moves, "dead end"
        turn, seat = s.turn, s.to_move
        m = rng.choice(moves)
        s.play(m)
        if s.turn == turn and s.to_move == seat:
            assert s.legal_moves(), f"dead end after {m}"
        n += 1
        assert n < 20000
    assert [sc.total for sc in s.scores()] == recount(s)
    rec = s.record()
    assert meeple.replay(rec).key() == s.key()
