"""Challenges in the store. :func:`open_challenges` and :func:`challenge_json` are the named
interface other features read (the account event stream): an account's open challenges, both
ways, and each as the same JSON the challenge routes answer with."""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from meeple.server.features.challenges.rows import ChallengeRow
from meeple.server.table.pace import BANK_DEFAULT
from meeple.store.account_data import on_account_erased, on_account_exported
from meeple.store.models import BOT, BOT_ACCOUNT, HUMAN, AccountRow, AccountSeatRow, aware, now
from meeple.store.store import SeatSpec, Store

OPEN, ACCEPTED, DECLINED, CANCELED, EXPIRED = "open", "accepted", "declined", "canceled", "expired"


@dataclass(frozen=True)
class Challenge:
    """A challenge as other features see it (the row's fields, the variant a fresh dict)."""

    id: str
    challenger_id: str
    challenged_id: str
    game: str
    variant: dict[str, Any]
    seats: int
    challenger_seat: int | None
    others: list[Any]
    pace: str
    clock: int | None
    rated: bool
    state: str
    reason: str | None
    table_id: str | None
    created: datetime
    expires: datetime


def challenge_of(r: ChallengeRow) -> Challenge:
    return Challenge(r.id, r.challenger_id, r.challenged_id, r.game, dict(r.variant), r.seats,
                     r.challenger_seat, list(r.others), r.pace, r.clock, r.rated, r.state,
                     r.reason, r.table_id, aware(r.created), aware(r.expires))


def open_challenges(store: Store, account_id: str, now: datetime | None = None
                    ) -> list[Challenge]:
    """The open challenges ``account_id`` made or was sent, oldest first; one past its
    expiry counts as no longer open even before anything marks it expired."""
    at = now or datetime.now(UTC)
    with store.session() as s:
        rows = s.scalars(
            select(ChallengeRow)
            .where(ChallengeRow.state == OPEN,
                   or_(ChallengeRow.challenger_id == account_id,
                       ChallengeRow.challenged_id == account_id))
            .order_by(ChallengeRow.created, ChallengeRow.id)).all()
        return [c for c in map(challenge_of, rows) if c.expires > at]


def challenge_json(store: Store, c: Challenge) -> dict[str, Any]:
    """``c`` as the routes and the event stream show it: both accounts by username (``name``)
    and the name they show (``display``), whether each is a bot account (never their ids),
    and the link to the table an accepted one made."""
    with store.session() as s:
        rows = {r.id: r for r in s.scalars(select(AccountRow).where(
            AccountRow.id.in_((c.challenger_id, c.challenged_id))))}

    def who(account_id: str) -> dict[str, Any]:
        row = rows.get(account_id)
        return {"name": row.username if row else None,
                "display": row.display_name if row else None,
                "bot_account": bool(row and row.kind == BOT_ACCOUNT)}

    return {"id": c.id, "challenger": who(c.challenger_id), "challenged": who(c.challenged_id),
            "game": c.game, "variant": c.variant, "seats": c.seats,
            "challenger_seat": c.challenger_seat, "others": c.others, "pace": c.pace,
            "clock": c.clock, "rated": c.rated, "state": c.state, "reason": c.reason,
            "table": c.table_id, "url": f"/t/{c.table_id}" if c.table_id else None,
            "created": c.created.isoformat(), "expires": c.expires.isoformat()}


class TooManyOpen(Exception):
    """The challenger has as many open challenges as it may."""

    def __init__(self, held: int) -> None:
        super().__init__(held)
        self.held = held


class NotOpen(Exception):
    """The challenge is no longer open: :attr:`challenge` says what it became."""

    def __init__(self, challenge: Challenge) -> None:
        super().__init__(challenge.state)
        self.challenge = challenge


class _Raced(Exception):
    """The challenge was answered by another request meanwhile: roll the table back."""


def expire_due(s: Session, at: datetime) -> None:
    """Within ``s``: every open challenge past its expiry becomes ``expired``."""
    s.execute(update(ChallengeRow).where(ChallengeRow.state == OPEN, ChallengeRow.expires <= at)
              .values(state=EXPIRED, answered=at))


def make_challenge(store: Store, challenger_id: str, challenged_id: str, game: str,
                   variant: dict[str, Any], seats: int, challenger_seat: int | None,
                   others: list[Any], pace: str, clock: int | None, rated: bool,
                   lasts: timedelta, max_open: int) -> Challenge:
    """A new open challenge ending ``lasts`` from now; :class:`TooManyOpen` when the
    challenger has ``max_open`` open ones already (counted in the same transaction)."""
    when = now()
    with store.writing() as s:
        expire_due(s, when)
        held = s.scalar(select(func.count()).select_from(ChallengeRow).where(
            ChallengeRow.challenger_id == challenger_id, ChallengeRow.state == OPEN)) or 0
        if held >= max_open:
            raise TooManyOpen(held)
        row = ChallengeRow(id=secrets.token_hex(8), challenger_id=challenger_id,
                           challenged_id=challenged_id, game=game, variant=dict(variant),
                           seats=seats, challenger_seat=challenger_seat, others=list(others),
                           pace=pace, clock=clock, rated=rated, state=OPEN, created=when,
                           expires=when + lasts)
        s.add(row)
        s.flush()
        return challenge_of(row)


def find_challenge(store: Store, challenge_id: str) -> Challenge | None:
    """The challenge (any state; an open one past its expiry shown ``expired``), or None."""
    when = now()
    with store.writing() as s:
        expire_due(s, when)
        row = s.get(ChallengeRow, challenge_id)
        return None if row is None else challenge_of(row)


def close_challenge(store: Store, challenge_id: str, state: str, reason: str | None = None
                    ) -> Challenge:
    """Mark open challenge ``challenge_id`` ``declined`` (with ``reason``) or ``canceled``;
    :class:`NotOpen` if it was answered, taken back or expired first."""
    when = now()
    with store.writing() as s:
        expire_due(s, when)
        done = s.execute(update(ChallengeRow).where(
            ChallengeRow.id == challenge_id, ChallengeRow.state == OPEN)
            .values(state=state, reason=reason, answered=when))
        row = s.get(ChallengeRow, challenge_id)
        assert row is not None
        s.refresh(row)
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise NotOpen(challenge_of(row))
        return challenge_of(row)


def seat_order(c: Challenge, draw: random.Random | None = None) -> list[SeatSpec | str]:
    """The new table's seats in order: the challenger's account id at its chosen seat (drawn
    when it chose none), the challenged account's at the first seat left, and the extra
    seats (``others``, in order) on the seats after: a bot spec makes a bot seat, None a
    person's seat left open to anyone."""
    at = c.challenger_seat
    if at is None:
        at = (draw or random.SystemRandom()).randrange(c.seats)
    rest = [i for i in range(c.seats) if i != at]
    order: list[SeatSpec | str] = [SeatSpec(kind=HUMAN, bot=None)] * c.seats
    order[at] = c.challenger_id
    order[rest[0]] = c.challenged_id
    for i, spec in zip(rest[1:], c.others, strict=True):
        order[i] = SeatSpec(kind=HUMAN, bot=None) if spec is None else SeatSpec(kind=BOT, bot=spec)
    return order


def accept_challenge(store: Store, c: Challenge, public: bool = True) -> tuple[Challenge, bool]:
    """Accept open challenge ``c``: its table made and both accounts' seats taken, the
    challenge marked ``accepted`` with the table, all in one transaction that keeps the table
    only if the challenge was still open (two accepts at once, in two server processes, make
    one table). Returns the challenge as it now stands and whether this call made the table
    (False: another accept made it first; :class:`NotOpen` if it was declined, canceled or
    expired instead)."""
    order = seat_order(c)
    specs = [SeatSpec(kind=HUMAN, bot=None) if isinstance(x, str) else x for x in order]
    bank = BANK_DEFAULT if c.pace != "live" else None
    row = store._new_table(c.game, c.variant, c.seats, specs, None, public, c.clock, None,
                           None, c.rated, c.pace, bank)
    when = now()
    with contextlib.suppress(_Raced), store.writing() as s:
        s.add(row)
        s.flush()
        done = s.execute(update(ChallengeRow).where(
            ChallengeRow.id == c.id, ChallengeRow.state == OPEN, ChallengeRow.expires > when)
            .values(state=ACCEPTED, table_id=row.id, answered=when))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise _Raced  # rolled back: the table is not kept
        live = {str(i) for i in s.scalars(select(AccountRow.id).where(
            AccountRow.id.in_((c.challenger_id, c.challenged_id)),
            AccountRow.deleted.is_(False)))}
        if len(live) != 2:
            raise _Raced
        for i, x in enumerate(order):
            if isinstance(x, str):  # the seat is the account's from this transaction on
                store._take_seat(s, row.id, i, "player", None, x)
        mine = s.get(ChallengeRow, c.id)
        assert mine is not None
        s.refresh(mine)
        return challenge_of(mine), True
    now_ = find_challenge(store, c.id)
    if now_ is None or now_.state != ACCEPTED:
        raise NotOpen(now_ or c)
    return now_, False


def seat_of(store: Store, table_id: str, account_id: str) -> int | None:
    """The seat ``account_id`` holds at ``table_id`` (None: none)."""
    with store.session() as s:
        return s.scalar(select(AccountSeatRow.seat).where(
            AccountSeatRow.table_id == table_id, AccountSeatRow.account_id == account_id)
            .order_by(AccountSeatRow.seat).limit(1))


def seated_accounts(store: Store, table_id: str) -> list[dict[str, Any]]:
    """The live accounts holding seats at ``table_id``, in seat order: the seat, the seat's
    display name, the username (what a challenge names) and whether it is a bot account."""
    with store.session() as s:
        rows = s.execute(select(AccountSeatRow.seat, AccountRow.username,
                                AccountRow.display_name, AccountRow.kind)
                         .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                         .where(AccountSeatRow.table_id == table_id,
                                AccountRow.deleted.is_(False))
                         .order_by(AccountSeatRow.seat)).all()
    return [{"seat": r.seat, "username": r.username, "name": r.display_name,
             "bot_account": r.kind == BOT_ACCOUNT} for r in rows]


@on_account_exported("challenges")
def exported_challenges(s: Session, account_id: str) -> list[dict[str, Any]]:
    """The account's challenges, both ways, oldest first: the other account by name."""
    rows = s.scalars(select(ChallengeRow).where(or_(
        ChallengeRow.challenger_id == account_id, ChallengeRow.challenged_id == account_id))
        .order_by(ChallengeRow.created, ChallengeRow.id)).all()
    ids = {r.challenger_id for r in rows} | {r.challenged_id for r in rows}
    names = {str(a.id): str(a.username) for a in s.execute(
        select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(ids)))}
    return [{"id": r.id, "made": r.challenger_id == account_id,
             "with": names.get(r.challenged_id if r.challenger_id == account_id
                               else r.challenger_id),
             "game": r.game, "variant": r.variant, "seats": r.seats, "pace": r.pace,
             "clock": r.clock, "rated": r.rated, "state": r.state, "reason": r.reason,
             "table": r.table_id, "created": aware(r.created).isoformat(),
             "expires": aware(r.expires).isoformat()} for r in rows]


@on_account_erased
def forget_challenges(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction: its challenges, both ways, go (the rows' foreign
    keys cascade too; a deletion only marks the account deleted, so they are removed here)."""
    s.execute(delete(ChallengeRow).where(or_(ChallengeRow.challenger_id == account_id,
                                             ChallengeRow.challenged_id == account_id)))
