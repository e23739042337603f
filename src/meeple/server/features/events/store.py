"""What an account's event stream reads from the store: the seats the account holds at tables
not finished, and how the tables it was told of stand now. Both are indexed reads
(``account_seats.account_id``, the tables' primary key), done in a thread."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from meeple.store.models import FINISHED, AccountSeatRow, TableRow
from meeple.store.store import Store

#: The most seats one stream lists (an account holding more is told of the oldest ones first).
MOST_SEATS = 500


@dataclass(frozen=True)
class HeldSeat:
    """A seat the account holds and its table, as ``gameStart`` and ``gameFinish`` tell it."""

    table: str
    seat: int
    game: str
    variant: dict[str, Any]
    status: str
    pace: str
    rated: bool
    players: int
    result: list[Any] | None
    ended: str | None

    def json(self) -> dict[str, Any]:
        return {"table": self.table, "seat": self.seat, "game": self.game,
                "variant": self.variant, "url": f"/t/{self.table}", "status": self.status,
                "pace": self.pace, "rated": self.rated, "players": self.players,
                "result": self.result, "ended": self.ended}


def _held(seat: AccountSeatRow, table: TableRow) -> HeldSeat:
    return HeldSeat(table.id, seat.seat, table.game, dict(table.variant), table.status,
                    table.pace, bool(table.rated), table.players,
                    list(table.result) if table.result is not None else None, table.ended)


def seats_in_play(store: Store, account_id: str) -> dict[tuple[str, int], HeldSeat]:
    """The seats ``account_id`` holds at tables waiting or running, by (table, seat)."""
    with store.session() as s:
        rows = s.execute(select(AccountSeatRow, TableRow)
                         .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                         .where(AccountSeatRow.account_id == account_id,
                                TableRow.status != FINISHED)
                         .order_by(AccountSeatRow.created, AccountSeatRow.table_id,
                                   AccountSeatRow.seat)
                         .limit(MOST_SEATS)).all()
        return {(seat.table_id, seat.seat): _held(seat, table) for seat, table in rows}


def seats_now(store: Store, account_id: str, keys: Iterable[tuple[str, int]]
              ) -> dict[tuple[str, int], HeldSeat]:
    """How the seats ``keys`` (the account's, once) stand now; a seat the account no longer
    holds, or whose table is gone, is left out."""
    wanted = set(keys)
    if not wanted:
        return {}
    with store.session() as s:
        rows = s.execute(select(AccountSeatRow, TableRow)
                         .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                         .where(AccountSeatRow.account_id == account_id,
                                AccountSeatRow.table_id.in_({t for t, _ in wanted}))).all()
        return {(seat.table_id, seat.seat): _held(seat, table) for seat, table in rows
                if (seat.table_id, seat.seat) in wanted}


__all__ = ["MOST_SEATS", "HeldSeat", "seats_in_play", "seats_now"]
