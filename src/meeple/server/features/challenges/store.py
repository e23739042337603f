"""Challenges in the store. :func:`open_challenges` is the named interface other features read
(the account event stream): an account's open challenges, both ways, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select

from meeple.server.features.challenges.rows import ChallengeRow
from meeple.store.store import Store

OPEN = "open"


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


def _aware(when: datetime) -> datetime:
    """SQLite gives back naive datetimes; the store writes UTC."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def challenge_of(r: ChallengeRow) -> Challenge:
    return Challenge(r.id, r.challenger_id, r.challenged_id, r.game, dict(r.variant), r.seats,
                     r.challenger_seat, list(r.others), r.pace, r.clock, r.rated, r.state,
                     r.reason, r.table_id, _aware(r.created), _aware(r.expires))


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
