"""Challenges in the store. :func:`open_challenges` and :func:`challenge_json` are the named
interface other features read (the account event stream): an account's open challenges, both
ways, and each as the same JSON the challenge routes answer with."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select

from meeple.server.features.challenges.rows import ChallengeRow
from meeple.store.models import BOT_ACCOUNT, AccountRow
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


def challenge_json(store: Store, c: Challenge) -> dict[str, Any]:
    """``c`` as the routes and the event stream show it: both accounts by name and whether each
    is a bot account (never their ids), and the link to the table an accepted one made."""
    with store.session() as s:
        rows = {r.id: r for r in s.scalars(select(AccountRow).where(
            AccountRow.id.in_((c.challenger_id, c.challenged_id))))}

    def who(account_id: str) -> dict[str, Any]:
        row = rows.get(account_id)
        return {"name": row.username if row else None,
                "bot_account": bool(row and row.kind == BOT_ACCOUNT)}

    return {"id": c.id, "challenger": who(c.challenger_id), "challenged": who(c.challenged_id),
            "game": c.game, "variant": c.variant, "seats": c.seats,
            "challenger_seat": c.challenger_seat, "others": c.others, "pace": c.pace,
            "clock": c.clock, "rated": c.rated, "state": c.state, "reason": c.reason,
            "table": c.table_id, "url": f"/t/{c.table_id}" if c.table_id else None,
            "created": c.created.isoformat(), "expires": c.expires.isoformat()}
