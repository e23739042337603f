"""Writes the three shipped (reconstructed) Reefs sheets as TOML into
src/meeple/games/reefs/sheets/: ``uv run python tools/make_reefs_sheets.py``. The engine never
imports this; it only documents how the shipped lattices were laid out, and lets a user start a
sheet of their own from a lattice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

COLS = "abcdefghijklmnop"

NOTE = (
    "Reconstructed (R2, R9, R11): the printed sheet's picture is not available. The layout is "
    "our own square lattice; item positions, treasure values, row values and grey boxes are "
    "our choices, tuned so that 2-4 players end within a sensible number of rounds. Owners of "
    "the printed sheet can enter its real values in a file of this format."
)


def sid(x: int, y: int) -> str:
    return f"{COLS[x - 1]}{y}"


def lattice(
    size: int,
    entries: list[tuple[int, int, int, int]],
    diagonals: list[tuple[str, str]] | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[str, str]], list[str]]:
    """A ``size`` x ``size`` square lattice (ids a1..), plus entry points ``(x, y)`` outside
    the edge, each joined to the edge space ``(ex, ey)``."""
    spaces: list[dict[str, Any]] = []
    conns: list[tuple[str, str]] = []
    for y in range(1, size + 1):
        for x in range(1, size + 1):
            spaces.append({"id": sid(x, y), "x": x, "y": y})
    for y in range(1, size + 1):
        for x in range(1, size + 1):
            if x < size:
                conns.append((sid(x, y), sid(x + 1, y)))
            if y < size:
                conns.append((sid(x, y), sid(x, y + 1)))
    conns.extend(diagonals or [])
    names = []
    for i, (x, y, ex, ey) in enumerate(entries, start=1):
        name = f"in{i}"
        spaces.append({"id": name, "x": x, "y": y})
        conns.append((name, sid(ex, ey)))
        names.append(name)
    return spaces, conns, names


def edge_entries(size: int, rows: list[int]) -> list[tuple[int, int, int, int]]:
    """Entry points outside all four edges next to the given row/column numbers."""
    out = []
    for r in rows:
        out.append((r, 0, r, 1))  # top
    for r in rows:
        out.append((size + 1, r, size, r))  # right
    for r in reversed(rows):
        out.append((r, size + 1, r, size))  # bottom
    for r in reversed(rows):
        out.append((0, r, 1, r))  # left
    return out


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_toml(d: dict[str, Any]) -> str:
    lines = [f"name = {q(d['name'])}", f"title = {q(d['title'])}", "reconstructed = true",
             f"note = {q(NOTE)}", ""]
    lines.append("# spaces: id (used in moves), x to the right, y downwards")
    lines.append("spaces = [")
    for sp in d["spaces"]:
        lines.append(f"  {{ id = {q(sp['id'])}, x = {sp['x']}, y = {sp['y']} }},")
    lines.append("]")
    lines.append("# connections: pairs of space ids; each is a segment one line may use (R4)")
    lines.append("connections = [")
    for a, b in d["connections"]:
        lines.append(f"  [{q(a)}, {q(b)}],")
    lines.append("]")
    for key in ("entry_points", "coins", "whirlpools", "propellers"):
        vals = ", ".join(q(v) for v in d.get(key, []))
        lines.append(f"{key} = [{vals}]")
    lines.append("treasures = [")
    for t in d["treasures"]:
        lines.append(
            f"  {{ space = {q(t[0])}, colour = {q(t[1])}, value = {t[2]} }},")
    lines.append("]")
    lines.append("")
    lines.append("# values printed above the boxes, left to right; grey = grey-shaded boxes")
    lines.append("[treasure_rows]")
    for colour in ("orange", "red", "blue", "green", "purple"):
        lines.append(f"{colour} = {{ values = {d['row']}, grey = {d['grey']} }}")
    lines.append("")
    lines.append("[coin_row]")
    lines.append(f"values = {d['coin_row']}")
    lines.append("")
    lines.append("[bonus]")
    lines.append("two_each = 5\nfull_row = 5\nend_grey = 5\nend_coins = 5")
    return "\n".join(lines) + "\n"


def level1() -> dict[str, Any]:
    spaces, conns, entries = lattice(6, edge_entries(6, [2, 5]))
    treasures = [
        ("b2", "orange", 2), ("e4", "orange", 3),
        ("d2", "red", 1), ("b5", "red", 3),
        ("c3", "blue", 2), ("f5", "blue", 2),
        ("e2", "green", 3), ("c6", "green", 2),
        ("a4", "purple", 2), ("d5", "purple", 3),
    ]
    coins = ["c1", "f1", "a3", "e3", "b4", "d4", "f3", "a6", "e6", "c5"]
    return {"name": "small-ocean", "title": "Level 1: Small Ocean", "spaces": spaces,
            "connections": conns, "entry_points": entries, "treasures": treasures,
            "coins": coins, "row": [1, 3, 6, 8, 10], "grey": 3,
            "coin_row": [1, 2, 3, 5, 7, 9, 12, 15]}


def level2() -> dict[str, Any]:
    spaces, conns, entries = lattice(7, [*edge_entries(7, [2, 6]), (4, 0, 4, 1), (4, 8, 4, 7)])
    treasures = [
        ("b3", "orange", 2), ("f5", "orange", 3),
        ("e2", "red", 2), ("c6", "red", 2),
        ("d3", "blue", 1), ("g4", "blue", 3),
        ("a5", "green", 3), ("e6", "green", 2),
        ("c2", "purple", 3), ("f3", "purple", 2),
        ("d5", "neutral", 2), ("b6", "neutral", 1), ("f7", "neutral", 2),
    ]
    coins = ["a1", "g1", "d1", "b4", "f4", "a7", "g7", "c4", "e4", "d7", "a3", "g6"]
    whirlpools = ["c3", "e3", "d4", "c5", "e5"]
    return {"name": "the-whirlpools", "title": "Level 2: The Whirlpools", "spaces": spaces,
            "connections": conns, "entry_points": entries, "treasures": treasures,
            "coins": coins, "whirlpools": whirlpools, "row": [1, 3, 6, 8, 10, 12], "grey": 3,
            "coin_row": [1, 2, 3, 4, 6, 8, 10, 12, 15, 18]}


def level3() -> dict[str, Any]:
    diagonals = [("b2", "c3"), ("f2", "e3"), ("b6", "c5"), ("f6", "e5"), ("c4", "d3"),
                 ("e4", "d5")]
    spaces, conns, entries = lattice(7, [*edge_entries(7, [2, 6]), (4, 0, 4, 1), (4, 8, 4, 7)],
                                     diagonals)
    treasures = [
        ("b3", "orange", 2), ("f5", "orange", 3),
        ("e2", "red", 2), ("c6", "red", 2),
        ("d2", "blue", 1), ("g4", "blue", 3),
        ("a5", "green", 3), ("e6", "green", 2),
        ("c2", "purple", 3), ("f3", "purple", 2),
        ("d4", "neutral", 2), ("b5", "neutral", 2),
    ]
    coins = ["a1", "g1", "d1", "b4", "f4", "a7", "g7", "c4", "e4", "d7", "a3", "g6"]
    propellers = ["c3", "e3", "c5", "e5", "d6"]
    return {"name": "the-propellers", "title": "Level 3: The Propellers", "spaces": spaces,
            "connections": conns, "entry_points": entries, "treasures": treasures,
            "coins": coins, "propellers": propellers, "row": [1, 3, 6, 8, 10, 12], "grey": 3,
            "coin_row": [1, 2, 3, 4, 6, 8, 10, 12, 15, 18]}


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "src/meeple/games/reefs/sheets"
    out.mkdir(exist_ok=True)
    for make in (level1, level2, level3):
        d = make()
        (out / f"{d['name']}.toml").write_text(to_toml(d), encoding="utf-8")


if __name__ == "__main__":
    main()
