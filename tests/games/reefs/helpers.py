"""Small hand-made Reefs sheets and forced rolls for scenario tests.

The test lattice (5 x 5, ids a1..e5, x to the right, y downwards) has four entry points:
in1 left of a3, in2 above c1, in3 right of e3, in4 below c5.
"""

from __future__ import annotations

from typing import Any

import meeple
from meeple.games.reefs.rules import ReefsState

COLS = "abcdefghij"


def lattice_sheet(
    size: int = 5,
    entries: tuple[tuple[int, int, int, int], ...] = (
        (0, 3, 1, 3), (3, 0, 3, 1), (6, 3, 5, 3), (3, 6, 3, 5)),
    *,
    diagonals: tuple[tuple[str, str], ...] = (),
    treasures: tuple[tuple[str, str, int], ...] = (),
    coins: tuple[str, ...] = (),
    whirlpools: tuple[str, ...] = (),
    propellers: tuple[str, ...] = (),
    row: tuple[int, ...] = (1, 2, 4, 6, 8),
    grey: int = 4,
    coin_row: tuple[int, ...] = (1, 2, 3, 5, 7, 9, 12, 15),
) -> dict[str, Any]:
    spaces: list[dict[str, Any]] = []
    conns: list[list[str]] = []

    def sid(x: int, y: int) -> str:
        return f"{COLS[x - 1]}{y}"

    for y in range(1, size + 1):
        for x in range(1, size + 1):
            spaces.append({"id": sid(x, y), "x": x, "y": y})
            if x < size:
                conns.append([sid(x, y), sid(x + 1, y)])
            if y < size:
                conns.append([sid(x, y), sid(x, y + 1)])
    conns.extend([list(d) for d in diagonals])
    names = []
    for i, (x, y, ex, ey) in enumerate(entries, start=1):
        spaces.append({"id": f"in{i}", "x": x, "y": y})
        conns.append([f"in{i}", sid(ex, ey)])
        names.append(f"in{i}")
    rows = {c: {"values": list(row), "grey": grey}
            for c in ("orange", "red", "blue", "green", "purple")}
    return {
        "name": "test-lattice", "title": "test lattice", "spaces": spaces,
        "connections": conns, "entry_points": names,
        "treasures": [{"space": s, "colour": c, "value": v} for s, c, v in treasures],
        "coins": list(coins), "whirlpools": list(whirlpools), "propellers": list(propellers),
        "treasure_rows": rows, "coin_row": {"values": list(coin_row)},
    }


def new(sheet: dict[str, Any] | None = None, players: int = 1, level: int = 1) -> ReefsState:
    s = meeple.new_game("reefs", players=players, level=level,
                        sheet=sheet if sheet is not None else lattice_sheet())
    assert isinstance(s, ReefsState)
    return s


def roll(
    s: ReefsState,
    O: str = "1any",  # noqa: E741
    R: str = "1any",
    B: str = "1any",
    G: str = "1any",
    P: str = "1any",
) -> None:
    """Force the five pencils of a roll (rolled in the order O R B G P, R1)."""
    for letter, face in (("O", O), ("R", R), ("B", B), ("G", G), ("P", P)):
        s.play(f"roll {letter} {face}")


def turn(s: ReefsState, pencil: str, *moves: str) -> None:
    """Take a pencil ('O', or 'O propeller') and play the given decisions."""
    s.play(f"take {pencil}")
    for m in moves:
        s.play(m)


def legal(s: ReefsState) -> list[str]:
    return sorted(str(m) for m in s.legal_moves())


def forfeit_rest(s: ReefsState) -> None:
    """Take and forfeit every pencil left in the middle."""
    while s.to_move is not None and s.to_move >= 0 and s.phase == 1:
        s.play(str(s.legal_moves()[0]))
        s.play("forfeit")
