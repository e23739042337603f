"""Previews built on the connection's turn in progress (meeple.server.table.service.Draft): the same
answers as a preview built from the committed position, at one engine step per click and none
per undo; and an undo of a committed decision is one step back, not a replay of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng
from meeple.server.table.service import Draft, PreviewAnswer, Refused, Service
from meeple.store import HUMAN, SeatSpec, Store
from tests.aio import run
from tests.steps import EngineSteps


def running_table(tmp_path: Path, game: str, variant: dict[str, Any]) -> tuple[Store, str]:
    store = Store(f"sqlite:///{tmp_path / 't.db'}")
    store.migrate()
    tid = store.create_table(game, variant, 2, [SeatSpec(HUMAN), SeatSpec(HUMAN)],
                             join_as="Ann").table_id
    store.join(tid, None, "Bob")
    return store, tid


def a_turn(state: meeple.State[Any], seed: int) -> list[str]:
    """One whole turn of the seat to move, a random choice at each decision."""
    s = state.clone()
    seat, turn, out = s.to_move, s.turn, []
    rng = Rng(seed)
    while s.to_move == seat and s.turn == turn:
        move = rng.choice(s.legal_moves())
        s.play(move)
        out.append(str(move))
    return out


def dumped(answer: PreviewAnswer) -> tuple[str, list[str], bool, list[bool]]:
    """A preview's answer, comparable: the same view, moves, completeness and forced marks
    (a fresh turn marks re-sent forced steps as the connection's turn did)."""
    return answer.view.model_dump_json(by_alias=True), answer.moves, answer.complete, \
        answer.forced


@pytest.mark.parametrize(("game", "variant"), [("gardens", {"level": 2}),
                                               ("pergola", {}), ("reefs", {"level": 1})])
def test_previews_on_the_connections_turn_answer_the_same_at_one_step_a_click(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str,
        variant: dict[str, Any]) -> None:
    store, tid = running_table(tmp_path, game, variant)
    svc = Service(store, None, bots=False)
    count = EngineSteps(monkeypatch, type(meeple.new_game(game, players=2, seed=1)))

    async def scenario() -> None:
        await svc.start_table(tid)
        rt = await svc.authority.runtime(tid)
        seat = rt.state.to_move
        assert seat is not None and seat >= 0
        texts = a_turn(rt.state, 3)
        draft = Draft()
        count.take()
        buffer: list[str] = []
        clicks = 0
        while True:  # the browser: each click sends its buffer plus one step
            kept = await svc.preview(tid, seat, [*buffer, texts[len(buffer)]], draft=draft)
            steps = count.take()
            fresh = await svc.preview(tid, seat, [*buffer, texts[len(buffer)]])
            assert dumped(kept) == dumped(fresh)
            count.take()
            added = len(kept[1]) - len(buffer)
            assert steps == added  # the new step and any forced after it: no replay
            buffer = kept[1]
            clicks += 1
            if kept[2]:
                break
        assert buffer == texts[:len(buffer)] and clicks >= 1
        # the browser's undo: the buffer minus its last move (forced ones come back by
        # themselves), or empty
        for n in range(len(buffer) - 1, -1, -1):
            kept = await svc.preview(tid, seat, buffer[:n], draft=draft)
            assert count.take() == 0  # popped (or forced steps kept), not replayed
            assert dumped(kept) == dumped(await svc.preview(tid, seat, buffer[:n]))
            count.take()
        # a refused step: the same reason as before, and the turn still serves
        first = texts[0]
        for bad in ([first, "zz9"], [first, first], texts + texts[:1]):
            with pytest.raises(Refused) as kept_err:
                await svc.preview(tid, seat, bad, draft=draft)
            with pytest.raises(Refused) as fresh_err:
                await svc.preview(tid, seat, bad)
            assert kept_err.value.reason == fresh_err.value.reason
        assert "no longer" in kept_err.value.reason
        # a commit moves the table on: the draft is rebuilt from the new position
        await svc.play(tid, seat, texts[0], rt.version, "c1")
        if rt.state.to_move == seat:
            count.take()
            kept = await svc.preview(tid, seat, [], draft=draft)
            assert draft.turn is not None and draft.turn.start is rt.state
            assert dumped(kept) == dumped(await svc.preview(tid, seat, []))

    run(scenario())
    store.close()


def test_undo_of_committed_decisions_is_one_step_back_not_a_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, tid = running_table(tmp_path, "gardens", {"level": 2})
    svc = Service(store, None, bots=False)
    count = EngineSteps(monkeypatch, type(meeple.new_game("gardens", players=2, seed=1)))

    async def scenario() -> None:
        await svc.start_table(tid)
        rt = await svc.authority.runtime(tid)
        seat = rt.state.to_move
        assert seat is not None and seat >= 0
        # a few turns first, so a replay would cost many steps
        for k in range(30):  # until a turn of three decisions or more comes
            texts = max((a_turn(rt.state, j) for j in range(8)), key=len)
            if k >= 3 and len(texts) >= 3:
                break
            await svc.play(tid, rt.state.to_move or 0, texts, rt.version, f"t{k}")
        seat = rt.state.to_move
        assert seat is not None and seat >= 0
        assert len(texts) >= 3
        keys = []
        for k, text in enumerate(texts[:-1]):  # committed one decision at a time
            keys.append((rt.state.key(), rt.state.history, len(rt.lines)))
            await svc.play(tid, seat, text, rt.version, f"s{k}")
        assert len(rt.befores) == len(texts) - 1
        history_length = len(rt.state.history)
        count.take()
        for k in range(len(texts) - 1):
            key, history, lines = keys.pop()
            await svc.undo(tid, seat, rt.version, f"u{k}")
            assert count.take() == 0  # the kept position, no replay of the game
            assert rt.state.key() == key and rt.state.history == history
            assert len(rt.lines) == lines
        with pytest.raises(Refused, match="nothing to undo"):
            await svc.undo(tid, seat, rt.version, "u-last")
        assert history_length > 12
        # a runtime rebuilt from the store keeps the positions too
        start_key = rt.state.key()
        await svc.play(tid, seat, texts[0], rt.version, "again")
        del svc.authority.runtimes[tid]
        rt = await svc.authority.runtime(tid)
        assert len(rt.befores) == 1
        count.take()
        await svc.undo(tid, seat, rt.version, "u-again")
        assert count.take() == 0 and rt.befores == []
        assert rt.state.key() == start_key

    run(scenario())
    store.close()
