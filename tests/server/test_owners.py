"""The server's move path, one owner at a time, without a socket (issue 50): the authority
(check, play, commit, catch up), the broadcaster (what each client is sent) and the bot
scheduler (a host of the test's own plays what it decides)."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.delta import apply_patch
from meeple.server.table.authority import Authority, Refused
from meeple.server.table.broadcaster import Broadcaster, MergedAck
from meeple.server.table.runtime import Client, Draft, Runtime
from meeple.server.table.scheduler import BotScheduler
from meeple.store import BOT, HUMAN, SeatSpec, Store
from tests.aio import run
from tests.server.test_turn_preview import a_turn, running_table
from tests.steps import EngineSteps


def test_the_authority_commits_a_previewed_turn_without_playing_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, tid = running_table(tmp_path, "gardens", {"level": 2})
    auth = Authority(store)
    count = EngineSteps(monkeypatch, type(meeple.new_game("gardens", players=2, seed=1)))

    async def scenario() -> None:
        rt = await auth.runtime(tid)
        await auth.draw_opening(rt)
        seat = rt.state.to_move
        assert seat is not None and seat >= 0
        texts = a_turn(rt.state, 5)
        draft = Draft()
        answer = auth.preview(rt, seat, texts, draft=draft)
        assert answer.complete
        assert draft.turn is not None
        previewed = draft.turn.before(len(texts))
        count.take()
        version = rt.version
        await auth.play(rt, seat, texts, version, None, draft=draft)
        # no decision was played again: the only engine steps are the draws of the rolls
        # that followed the turn (on a copy of the previewed position)
        drawn = rt.version - version - len(texts)
        assert count.take() == drawn
        assert (rt.state is previewed) == (drawn == 0)
        # the same record as the turn played from the position (a whole rebuild agrees)
        again = auth.load(tid)
        assert again.state.key() == rt.state.key()
        assert [line.model_dump() for line in again.lines] == \
            [line.model_dump() for line in rt.lines]

    run(scenario())
    store.close()


def test_a_refused_request_leaves_the_authority_as_it_was(tmp_path: Path) -> None:
    store, tid = running_table(tmp_path, "reefs", {"level": 1})
    auth = Authority(store)

    async def scenario() -> None:
        rt = await auth.runtime(tid)
        await auth.draw_opening(rt)
        seat = rt.state.to_move
        assert seat is not None and seat >= 0
        before = (rt.state, rt.state.key(), rt.version, len(rt.lines), list(rt.befores))
        draft = Draft()
        auth.preview(rt, seat, [], draft=draft)
        for texts, why in ((["zz9"], "zz9"), (["take O", "take O"], "")):
            with pytest.raises(Refused) as err:
                await auth.play(rt, seat, texts, rt.version, None, draft=draft)
            assert err.value.reason and (why in err.value.reason)
        with pytest.raises(Refused, match="moved on"):
            await auth.play(rt, seat, ["take O"], rt.version - 1, None)
        with pytest.raises(Refused, match="not your turn"):
            await auth.play(rt, 1 - seat, ["take O"], rt.version, None)
        assert (rt.state, rt.state.key(), rt.version, len(rt.lines), list(rt.befores)) == \
            before
        assert len(store.log(tid)) == rt.version

    run(scenario())
    store.close()


def test_catching_up_with_another_process_reads_only_the_new_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, tid = running_table(tmp_path, "takenokolor", {"sheet": "2-pandas"})
    mine, other = Authority(store), Authority(store)  # two server processes, one store
    asked: list[int] = []
    real_log = store.log

    def log(table_id: str, after: int = 0) -> Any:
        asked.append(after)
        return real_log(table_id, after)

    async def scenario() -> None:
        rt = await mine.runtime(tid)
        await mine.draw_opening(rt)
        theirs = await other.runtime(tid)
        await other.refresh(theirs)
        for k in range(6):  # the other process plays three whole turns
            seat = theirs.state.to_move
            assert seat is not None and seat >= 0
            await other.play(theirs, seat, a_turn(theirs.state, k), theirs.version, None)
        monkeypatch.setattr(store, "log", log)
        behind = rt.version
        assert await mine.refresh(rt)
        assert asked == [behind]  # only what was stored after the version it had
        whole = other.load(tid)
        assert (rt.version, rt.state.key()) == (whole.version, whole.state.key())
        assert [x.model_dump() for x in rt.lines] == [x.model_dump() for x in whole.lines]
        assert len(rt.befores) == len(whole.befores)

    run(scenario())
    store.close()


def _runtime() -> Runtime:
    store = Store("sqlite://")
    store.migrate()
    tid = store.create_table("reefs", {"level": 1}, 2, [SeatSpec(HUMAN), SeatSpec(HUMAN)],
                             join_as="Ann").table_id
    store.join(tid, None, "Bob")
    return Authority(store).load(tid)


def _sender(sent: dict[str, list[str]]) -> Any:
    """A maker of a client's ``send`` that keeps the frames it is sent in ``sent[name]``."""
    def sender(name: str) -> Any:
        async def send(frame: dict[str, Any] | str) -> None:
            assert isinstance(frame, str)
            sent[name].append(frame)
        return send
    return sender


def test_the_broadcaster_sends_a_view_first_then_updates_made_once_for_alike_clients() -> None:
    rt = _runtime()
    sent: dict[str, list[str]] = {"a": [], "b": [], "s": []}
    sender = _sender(sent)

    import json

    b = Broadcaster()
    a = Client(0, sender("a"), updates=True)
    s1 = Client(None, sender("s"), updates=True)
    s2 = Client(None, sender("b"), updates=True)
    rt.clients |= {a, s1, s2}

    async def scenario() -> None:
        await b.broadcast(rt)
        first = {k: json.loads(v[-1]) for k, v in sent.items()}
        assert {f["type"] for f in first.values()} == {"view"}
        assert first["a"]["view"]["viewer"] == 0 and first["s"]["view"]["viewer"] is None
        rt.state.play(rt.state.chance_outcomes()[0][0])  # a change (as a commit makes it)
        rt.version += 1
        await b.broadcast(rt)
        # the two spectators were sent the very same update text, made once
        assert sent["s"][-1] is sent["b"][-1]
        update = json.loads(sent["a"][-1])
        assert update["type"] == "update" and update["base"] == first["a"]["version"]
        patched = apply_patch(first["a"]["view"], update["patch"])
        assert patched == b.shown(rt, 0).data

    run(scenario())


def test_the_broadcaster_takes_a_movers_ack_as_an_argument_and_says_if_it_went_out() -> None:
    """The ack travels as data (no field of the client): it goes in the mover's frame only,
    once, and ``broadcast`` says whether it went out; a mover no longer at the table is owed
    it still (False), and a later broadcast without it carries no ack."""
    import json

    rt = _runtime()
    sent: dict[str, list[str]] = {"a": [], "b": []}
    sender = _sender(sent)

    b = Broadcaster()
    a = Client(0, sender("a"), updates=True, merged_ack=True)
    other = Client(1, sender("b"), updates=True, merged_ack=True)
    rt.clients |= {a, other}

    async def scenario() -> None:
        assert await b.broadcast(rt, MergedAck(a, "m1")) is True
        assert json.loads(sent["a"][-1])["ack"] == {"id": "m1"}
        assert "ack" not in json.loads(sent["b"][-1])
        await b.broadcast(rt)
        assert "ack" not in json.loads(sent["a"][-1])
        gone = Client(0, sender("a"), merged_ack=True)  # not a client of the table
        assert await b.broadcast(rt, MergedAck(gone, None)) is False
        assert not any("ack" in json.loads(f[-1]) for f in sent.values())

    run(scenario())


class FakeHost:
    """A host that commits a bot's move straight onto the runtime (no store, no clients)."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.played: list[tuple[int, list[str]]] = []

    async def play(self, table_id: str, seat: int, text: str | Sequence[str], version: int,
                   client_id: str | None, *, by_bot: bool = False, quiet: bool = False
                   ) -> int:
        assert by_bot and version == self.rt.version
        texts = [text] if isinstance(text, str) else list(text)
        for t in texts:
            self.rt.state.play(t)
        while self.rt.state.to_move == meeple.CHANCE:
            self.rt.state.sample_chance()
        self.rt.version += 1
        self.played.append((seat, texts))
        return self.rt.version

    async def set_absent(self, table_id: str, seat: int, absent: bool) -> None:
        raise AssertionError("no clock at this table")

    async def refresh(self, rt: Runtime) -> bool:
        return False

    async def tell_clock(self, rt: Runtime) -> None:
        return None


def test_the_bot_scheduler_plays_a_bots_only_table_to_its_end_through_its_host() -> None:
    store = Store("sqlite://")
    store.migrate()
    tid = store.create_table("reefs", {"level": 1}, 2,
                             [SeatSpec(BOT, "random"), SeatSpec(BOT, "random")]).table_id
    rt = Authority(store).load(tid)
    while rt.state.to_move == meeple.CHANCE:
        rt.state.sample_chance()
    host = FakeHost(rt)
    bots = BotScheduler(host, None, refresh=host.refresh, tell_clock=host.tell_clock)

    async def scenario() -> None:
        bots.schedule(rt)
        assert rt.bot_task is not None
        await asyncio.wait_for(rt.bot_task, 60)

    run(scenario())
    assert rt.state.is_over
    assert {seat for seat, _ in host.played} == {0, 1}
    store.close()


def _passes_through(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``fn``'s body (its docstring aside) only hands its call to an attribute of
    ``self`` (``return self.x.y(...)``, ``await self.x.y(...)``, ``return self.x.y``)."""
    body = [s for s in fn.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
        return False
    value = body[0].value
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        value = value.func
    return (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Attribute)
            and isinstance(value.value.value, ast.Name) and value.value.value.id == "self")


def test_the_service_passes_nothing_through_and_no_client_field_carries_an_ack() -> None:
    """Callers ask each owner directly (docs/layers.md, *The server's move path*): no method
    or property of the Service only hands its call to the authority, the broadcaster or the
    scheduler; and a move's ack is an argument, not a field of the connection's client."""
    import dataclasses
    import inspect

    import meeple.server.table.service as service

    tree = ast.parse(inspect.getsource(service))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Service")
    through = [f.name for f in cls.body
               if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and _passes_through(f)]
    assert through == []
    assert "ack_due" not in {f.name for f in dataclasses.fields(Client)}
