"""The table core's registry of what features add to a table's WebSocket and to the fan-out
(:mod:`meeple.server.table.sockets`): one handler per frame type, none for the frames the core
answers or for types the protocol does not define, and notice codes apart from the log's
versions and seat changes. That a registered handler gets its frames on a real server is what
tests/server/test_chat.py tries (the chat is answered only through this registry), its notices
on two processes of one PostgreSQL in its last tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.server.app import create_app
from meeple.server.features.chat.store import CHAT_NOTICE, HIDDEN_NOTICE
from meeple.server.site import site_in
from meeple.server.table.protocol import ClientFrame
from meeple.server.table.runtime import Client
from meeple.server.table.sockets import CORE_FRAMES, SEATS_NOTICE, Socket, SocketRegistry
from meeple.store import Store


async def handler(socket: Socket, client: Client, frame: ClientFrame) -> None:
    """A feature's answer to a frame (never called here)."""


async def other(socket: Socket, client: Client, frame: ClientFrame) -> None:
    """Another feature's answer to the same frame type (never called here)."""


async def notice(table_id: str, code: int) -> None:
    """A feature's reading of a notice (never called here)."""


def test_a_second_handler_for_a_frame_type_is_refused_and_the_first_kept() -> None:
    sockets = SocketRegistry()
    sockets.handle("chat", handler)
    with pytest.raises(ValueError, match="'chat' frames already have a handler"):
        sockets.handle("chat", other)
    assert sockets.frames == {"chat": handler}


#: Registrations refused however the registry stands: (what, its argument, the refusal).
REFUSED = ([("frame", kind, "the table core answers") for kind in sorted(CORE_FRAMES)]
           + [("frame", "whisper", "not a client frame of the protocol.*chat")]
           + [("notice", code, "the table core's") for code in (0, 7, SEATS_NOTICE)])


@pytest.mark.parametrize(("what", "arg", "refusal"), REFUSED)
def test_a_core_frame_an_unknown_frame_and_a_core_notice_code_are_refused(
        what: str, arg: str | int, refusal: str) -> None:
    sockets = SocketRegistry()
    with pytest.raises(ValueError, match=refusal):
        if what == "frame":
            assert isinstance(arg, str)
            sockets.handle(arg, handler)
        else:
            assert isinstance(arg, int)
            sockets.notice(arg, notice)
    assert sockets.frames == {} and sockets.notices == {}


def test_a_second_handler_for_a_notice_code_is_refused() -> None:
    sockets = SocketRegistry()
    sockets.notice(-9, notice)
    with pytest.raises(ValueError, match="already has a handler"):
        sockets.notice(-9, notice)
    assert sockets.notices == {-9: notice}


def test_the_app_wires_the_chat_into_the_registry_and_accounts_as_the_identity(
        tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    store.migrate()
    site = site_in(create_app(store))
    assert set(site.sockets.frames) == {"chat"}
    assert site.sockets.frames["chat"] == site.chat.on_frame
    assert site.sockets.hellos == [site.chat.on_hello]
    assert site.sockets.closes == [site.chat.on_close]
    assert set(site.sockets.notices) == {CHAT_NOTICE, HIDDEN_NOTICE}
    assert site.identity is site.accounts
