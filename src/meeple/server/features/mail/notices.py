"""What is mailed when: at a turn-based table, "your turn" to the account of the
seat now to move, "game over" to every account of a finished game, and a rematch invitation
to the others of a finished game once one of them made the rematch. Each only to a verified
address whose preferences ask for it, never to a seat its stand-in plays (its person ran out
of time, left or conceded), and "your turn" not while a page of the seat is connected to this
process (the page tells them itself). Each mail is queued under a key naming its turn (or
game), so a turn is mailed once however many processes see it.

:meth:`Notifier.after_change` is called after every change a process made (it only looks at
the runtime in memory and starts a task); the outbox is written in that task, off the move
path, and the :class:`~meeple.server.features.mail.mailer.Mailer` sends it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

import meeple
from meeple.core.state import CHANCE
from meeple.server.features.accounts.store import Accounts
from meeple.server.features.mail.mailer import Letter, Mailer, MailSettings, Signer, letter
from meeple.server.features.mail.store import Mailbox, Recipient
from meeple.server.table.runtime import Runtime
from meeple.store import FINISHED, HUMAN, RUNNING, Store, Table

log = logging.getLogger("meeple.server")


def duration(seconds: float) -> str:
    """Seconds in days, hours and minutes, as a mail says them (``2 days 3 h``, ``45 min``)."""
    if not math.isfinite(seconds):
        return "no limit"
    s = max(0, int(seconds))
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"{minutes} min" if s >= 60 else f"{s} s"


class Notifier:
    """Queues the mails a process's changes call for (only with ``MEEPLE_SMTP_URL`` set)."""

    def __init__(self, store: Store, settings: MailSettings, mailer: Mailer,
                 key: bytes | None) -> None:
        self.store = store
        self.settings = settings
        self.mailer = mailer
        self.box = Mailbox(store)
        self._accounts = Accounts(store)
        self._key = key
        self._signer: Signer | None = None
        #: the keys queued (or found queued) by this process, so a change seen again is
        #: not looked up again (bounded: cleared when large)
        self._seen: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    async def signer(self) -> Signer:
        """The links' signer: ``MEEPLE_SECRET_KEY``, else the key kept in the database."""
        if self._signer is None:
            key = self._key or (await asyncio.to_thread(self._accounts.server_secret,
                                                        "mail")).encode()
            self._signer = Signer(key)
        return self._signer

    def _spawn(self, key: str, work: Any) -> None:
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen.add(key)
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a mail could not be queued: %s", task.exception())

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ after a change
    def after_change(self, rt: Runtime) -> None:
        """After a change this process made at ``rt`` (committed and told): the turn-based
        table's "your turn" or "game over" mails, queued in a task of their own."""
        if not self.settings.enabled or rt.times is None:
            return
        t = rt.table
        if t.status == RUNNING:
            seat = rt.state.to_move
            if seat is None or seat == CHANCE or not 0 <= seat < len(t.seats):
                return
            s = t.seats[seat]
            if s.kind != HUMAN or s.absent or s.conceded or rt.connected(seat):
                return
            key = f"turn:{t.id}:{seat}:{rt.state.turn}"
            if key not in self._seen:
                left = rt.times.left(back_at=s.back_at)
                self._spawn(key, self._turn(t, seat, key, left))
        elif t.status == FINISHED and t.result is not None and rt.state.is_over:
            key = f"ended:{t.id}"
            if key not in self._seen:
                names = [x.name for x in t.seats]
                scores = [s.total for s in rt.state.scores()]
                self._spawn(key, self._ended(t, names, scores, list(rt.state.winners())))

    async def _queue(self, key: str, to: Recipient, kind: str, mail: Letter) -> None:
        queued = await asyncio.to_thread(self.box.enqueue, key, to.account_id, kind, to.email,
                                         mail.subject, mail.body, mail.headers)
        if queued:
            self.mailer.wake()

    async def _turn(self, t: Table, seat: int, key: str, left: float) -> None:
        found = [r for r in await asyncio.to_thread(self.box.recipients, t.id) if r.seat == seat]
        if not found or not found[0].notify["turn"] or found[0].absent or found[0].conceded:
            return
        to = found[0]
        title = meeple.game_info(t.game).title
        others = ", ".join(x.name for x in t.seats if x.index != seat) or "nobody"
        mail = letter(self.settings, await self.signer(), to.account_id, "turn",
                      f"Your turn: {title} with {others}", [
                          f"It is your turn at {title}, with {others}.",
                          f"You have {duration(left)} left for this move (the move's time, "
                          "then your time bank); after that a stand-in bot plays for you "
                          "until you play again."], table=t.id)
        await self._queue(key, to, "turn", mail)

    async def _ended(self, t: Table, names: list[str], scores: list[int],
                     winners: list[int]) -> None:
        title = meeple.game_info(t.game).title
        won = " and ".join(names[i] for i in winners) or "nobody"
        lines = [f"The game of {title} is over: {won} "
                 f"{'share the win' if len(winners) > 1 else 'wins'}.", ""]
        lines += [f"  {name}: {score}" for name, score in zip(names, scores, strict=False)]
        signer = await self.signer()
        for to in await asyncio.to_thread(self.box.recipients, t.id):
            if not to.notify["ended"]:
                continue
            mail = letter(self.settings, signer, to.account_id, "ended",
                          f"Game over: {title}", lines, table=t.id)
            await self._queue(f"ended:{t.id}:{to.seat}", to, "ended", mail)

    def rematch_made(self, old: Table, new_table: str, by_seat: int) -> None:
        """The rematch of ``old`` was just made: its invitations queued in a task."""
        if self.settings.enabled and old.pace == "turn-based":
            self._spawn(f"rematch:{old.id}", self.rematch(old, new_table, by_seat))

    async def rematch(self, old: Table, new_table: str, by_seat: int) -> None:
        """The rematch of turn-based table ``old`` was just made by ``by_seat``'s person: the
        others are invited (a link to the finished table, whose page offers to join)."""
        if not self.settings.enabled or old.pace != "turn-based":
            return
        title = meeple.game_info(old.game).title
        by = old.seats[by_seat].name if 0 <= by_seat < len(old.seats) else "someone"
        signer = await self.signer()
        for to in await asyncio.to_thread(self.box.recipients, old.id):
            if to.seat == by_seat or not to.notify["rematch"]:
                continue
            mail = letter(self.settings, signer, to.account_id, "rematch",
                          f"{by} invites you to a rematch of {title}", [
                              f"{by} made a rematch of your game of {title}: the same game "
                              "at the same pace, with your seat kept open for you.",
                              "Open the finished table and choose Join the rematch."],
                          table=old.id)
            await self._queue(f"rematch:{old.id}:{to.seat}:{new_table}", to, "rematch", mail)

    def challenge_made(self, challenge_id: str, challenged_id: str, by: str, what: str) -> None:
        """A turn-based challenge was just made to ``challenged_id`` by ``by`` (a username):
        its mail queued in a task, if that account has a confirmed address and ``challenge``
        on (the challenges feature calls it through the site)."""
        if self.settings.enabled:
            self._spawn(f"challenge:{challenge_id}",
                        self.challenge(challenge_id, challenged_id, by, what))

    async def challenge(self, challenge_id: str, challenged_id: str, by: str, what: str
                        ) -> None:
        """The challenge's mail: what it is, and the link to the site, whose every page shows
        a signed-in account its incoming challenges with Accept and Decline."""
        found = await asyncio.to_thread(self.box.contact, challenged_id)
        if found is None:
            return
        email, verified, notify = found
        if email is None or not verified or not notify["challenge"]:
            return
        base = self.settings.public_url
        mail = letter(self.settings, await self.signer(), challenged_id, "challenge",
                      f"{by} challenges you to {what}", [
                          f"{by} challenges you to a turn-based game: {what}.",
                          f"To accept or decline it, open meeple signed in: {base}/ (the "
                          "challenge is shown on every page, with Accept and Decline).",
                          "It expires unanswered after 7 days."])
        if await asyncio.to_thread(self.box.enqueue, f"challenge:{challenge_id}", challenged_id,
                                   "challenge", email, mail.subject, mail.body, mail.headers):
            self.mailer.wake()


__all__ = ["Notifier", "duration"]
