"""Chat's rows on the store's base (:class:`meeple.store.models.Base`): a table's messages and
their reports. The migrations in ``meeple/store/migrations`` build these tables with the rest."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base, now


class ChatMessageRow(Base):
    """A message of a table's chat: by a seat (``seat``), or by a signed-in spectator (``seat``
    None); ``account_id`` the author's account where there is one (a seat an account holds, a
    signed-in spectator). ``name`` is the name shown, as it was when posted (``deleted
    player`` once the account is deleted). A hidden message (a moderator's decision) is kept
    and shown to nobody."""

    __tablename__ = "chat_messages"
    #: a table's messages in order (history pages, the last 50 at a hello)
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatReportRow(Base):
    """A report of a chat message, kept for the moderators (``meeple reports``): one per
    reporter and message. ``reporter`` is ``a:`` and an account id, or ``c:`` and the digest
    of the client's address (``quotas.client_hash``), never the address."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(
        ForeignKey("chat_messages.id", ondelete="CASCADE"), index=True)
    reporter: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
