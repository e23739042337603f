"""The tables and figures of docs/balance.md, from self-play records.

    bash tools/balance_selfplay.sh DIR          # the self-play records (2376 games)
    uv run python tools/balance_doc.py DIR/*.jsonl --figures docs/balance

Records come from ``meeple simulate`` self-play runs (every seat the same bot spec; solo
challenges one bot); gzipped files (``.jsonl.gz``, as docs/research/records/balance keeps
them) are read too.
It prints, in markdown: the win share of each seat position per game and seat count (variants
and bots pooled), which score-pad rows decide games (the winners' lead over the other seats
row by row, :func:`meeple.sim.balance.decisive_rows`), one row per game, variant, seat count
and bot (score distribution, win share by seat, seat decisions per game), and one per solo
variant and bot (score distribution, challenge met). With ``--figures DIR`` it also draws each
game's score, seat and row plots of the games with two or more seats there.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from meeple.sim.balance import (
    BALANCE_HEADERS,
    DECISIVE_HEADERS,
    SEAT_HEADERS,
    SOLO_HEADERS,
    balance_figures,
    balance_rows,
    decisive_rows,
    seat_rows,
    solo_rows,
)
from meeple.sim.runner import read_records


def load(path: Path) -> list[dict[str, Any]]:
    """The finished game records of a ``.jsonl`` or ``.jsonl.gz`` file."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            recs = [json.loads(line) for line in fh if line.strip()]
    else:
        recs = read_records(path)
    return [r for r in recs if "scores" in r]


def markdown(headers: list[str], rows: list[list[Any]]) -> str:
    def cell(x: Any) -> str:
        return f"{x:.2f}" if isinstance(x, float) else str(x)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--figures", type=Path, help="directory for the PNG figures")
    args = parser.parse_args()
    records = [r for f in args.files for r in load(f)]
    print(f"<!-- {len(records)} records -->\n")
    print("### Seat position (first-player advantage), pooled\n")
    print(markdown(SEAT_HEADERS, seat_rows(records)) + "\n")
    print("### Which rows decide games, pooled\n")
    print(markdown(DECISIVE_HEADERS, decisive_rows(records)) + "\n")
    multi = [r for r in records if len(r["scores"]) > 1]
    print("### Per game, variant, seat count and bot\n")
    print(markdown(BALANCE_HEADERS, balance_rows(multi)) + "\n")
    solo = solo_rows(records)
    if solo:
        print("### Solo variants, per variant and bot\n")
        print(markdown(SOLO_HEADERS, solo))
    if args.figures is not None:
        for path in balance_figures(multi, args.figures):
            print(f"<!-- figure {path} -->")


if __name__ == "__main__":
    main()
