"""Mail's row on the store's base (:class:`meeple.store.models.Base`): the outbox, a row per
mail, and its states. The migrations in ``meeple/store/migrations`` build the table with the
rest."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base, now

#: A mail's state in the outbox: to send (at ``next_try``), being sent by one process, sent,
#: given up (after its tries).
QUEUED, SENDING, SENT, FAILED = "queued", "sending", "sent", "failed"


class MailRow(Base):
    """One mail to send: queued, claimed by one server process (``sending``),
    ``sent`` or ``failed`` after its tries. ``key`` names what it is about (``turn:<table>:
    <seat>:<version>``, ``verify:<account>:<n>``...), unique, so two processes that see the
    same turn queue one mail."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_state_next", "state", "next_try"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: ``verify``, ``turn``, ``ended``, ``rematch``
    kind: Mapped[str] = mapped_column(String(12))
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    #: extra headers (List-Unsubscribe and its one-click POST)
    headers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[str] = mapped_column(String(8), default=QUEUED)
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: when it may be (tried) next; while ``sending``, when the claim lapses
    next_try: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
