"""Play now's queue in the store: who waits for which game, variant and seats, at
what rating; and seating a group of them (with bots, if they said so) at a new table, in one
transaction that marks them seated only if none was seated by another server process first.
Who goes with whom is the server's choice (:mod:`meeple.server.features.playnow.service`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from meeple.server.features.playnow.rows import QueueRow
from meeple.store.account_data import on_account_erased
from meeple.store.locks import AdvisoryLock
from meeple.store.models import BOT, HUMAN, AccountRow, aware, now
from meeple.store.store import SeatSpec, Store, StoreError

WAITING_STATE, MATCHED, GONE = "waiting", "matched", "gone"

#: The PostgreSQL advisory lock a server process holds while it matches (one at a time).
MATCH_LOCK = 53_000_001


@dataclass(frozen=True)
class Entry:
    """An account's place in the queue."""

    account_id: str
    game: str
    variant: dict[str, Any]
    players: int
    bucket: str
    rating: float
    bots: bool
    state: str
    since: datetime
    seen: datetime
    table_id: str | None
    seat: int | None


@dataclass(frozen=True)
class Group:
    """People to seat together (their entries, in seat order) and the bots that fill the
    other seats (their specs, in seat order after the people)."""

    entries: tuple[Entry, ...]
    bots: tuple[str, ...] = ()


class _Raced(Exception):
    """Someone of a group was seated or left meanwhile: roll the group back."""


def _entry(r: QueueRow) -> Entry:
    return Entry(r.account_id, r.game, dict(r.variant), r.players, r.bucket, r.rating, r.bots,
                 r.state, aware(r.since), aware(r.seen), r.table_id, r.seat)


class PlayQueue:
    """Play now's queue over a :class:`~meeple.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def enter(self, account_id: str, game: str, variant: dict[str, Any], players: int,
              bucket: str, rating: float, bots: bool) -> Entry:
        """Put the account in the queue (its earlier wish, seated or not, is replaced; the
        same wish while still waiting keeps its place)."""
        when = now()
        with self.store.writing() as s:
            row = s.get(QueueRow, account_id)
            if row is not None and row.state == WAITING_STATE and row.bucket == bucket:
                row.bots, row.rating, row.seen = bots, rating, when
            else:
                if row is not None:
                    s.delete(row)
                    s.flush()
                row = QueueRow(account_id=account_id, game=game, variant=dict(variant),
                               players=players, bucket=bucket, rating=rating, bots=bots,
                               state=WAITING_STATE, since=when, seen=when)
                s.add(row)
            s.flush()
            return _entry(row)

    def status(self, account_id: str) -> Entry | None:
        """The account's entry (None: not in the queue); a waiting one is seen now (its page
        still asks)."""
        with self.store.writing() as s:
            row = s.get(QueueRow, account_id)
            if row is None:
                return None
            if row.state == WAITING_STATE:
                row.seen = now()
            return _entry(row)

    def leave(self, account_id: str) -> bool:
        """Take the account out of the queue: whether it was waiting."""
        with self.store.writing() as s:
            done = s.execute(delete(QueueRow).where(QueueRow.account_id == account_id,
                                                    QueueRow.state == WAITING_STATE))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def waiting(self, seen_within: float) -> list[Entry]:
        """Every entry still waiting whose page asked in the last ``seen_within`` seconds,
        oldest first; entries whose page stopped asking are marked gone (never seated)."""
        cutoff = now() - timedelta(seconds=seen_within)
        with self.store.writing() as s:
            s.execute(update(QueueRow).where(QueueRow.state == WAITING_STATE,
                                             QueueRow.seen < cutoff).values(state=GONE))
            rows = s.scalars(select(QueueRow).where(QueueRow.state == WAITING_STATE)
                             .order_by(QueueRow.since, QueueRow.account_id))
            return [_entry(r) for r in rows]

    def try_lock(self) -> Any:
        """A context in which this process is the one matching (PostgreSQL: an advisory
        lock; SQLite: its single writer already is); it yields whether it got the lock."""
        return AdvisoryLock(self.store, MATCH_LOCK)

    def seat(self, group: Group, rated: bool = False) -> str | None:
        """Seat ``group`` at a new table of its wish (the people first, then the bots), all in
        one transaction: the table, its seats taken (held by the accounts, played by their
        sessions), the entries marked seated. None if one of them was seated, left or went
        meanwhile (nothing is made then)."""
        first = group.entries[0]
        specs = ([SeatSpec(kind=HUMAN, bot=None) for _ in group.entries]
                 + [SeatSpec(kind=BOT, bot=b) for b in group.bots])
        if len(specs) != first.players:
            raise StoreError(f"a group of {len(specs)} seats for a game of {first.players}")
        row = self.store._new_table(first.game, first.variant, first.players, specs, None,
                                    False, None, None, None, rated)
        ids = [e.account_id for e in group.entries]
        with contextlib.suppress(_Raced), self.store.writing() as s:
            names = {str(r.id): str(r.display_name) for r in s.execute(
                select(AccountRow.id, AccountRow.display_name).where(
                    AccountRow.id.in_(ids), AccountRow.deleted.is_(False)))}
            if len(names) != len(set(ids)):  # one was deleted meanwhile: never seated
                raise _Raced
            s.add(row)
            s.flush()
            for i, e in enumerate(group.entries):
                done = s.execute(update(QueueRow).where(
                    QueueRow.account_id == e.account_id, QueueRow.state == WAITING_STATE,
                    QueueRow.bucket == e.bucket).values(state=MATCHED, table_id=row.id, seat=i))
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    raise _Raced
                # the seat is the account's from this transaction on (its session plays it)
                self.store._take_seat(s, row.id, i, names.get(e.account_id, "player"), None,
                                      e.account_id)
            return row.id
        return None


@on_account_erased
def forget_wish(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction (:mod:`meeple.store.account_data`): its Play now wish
    goes, so a deleted account is never seated at a new table."""
    s.execute(delete(QueueRow).where(QueueRow.account_id == account_id))


__all__ = ["GONE", "MATCHED", "WAITING_STATE", "Entry", "Group", "PlayQueue", "forget_wish"]
