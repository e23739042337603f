"""The server's routes by concern, each an ``APIRouter`` that :func:`meeple.server.app.create_app`
includes: :mod:`.lobby` (games, tables to list, create, join and leave), :mod:`.tables` (one
table's view, hint, analysis, record, layout and log), :mod:`.sheets` (sheets of one's own),
:mod:`.solo` (solo achievement tables), :mod:`.accounts` (accounts and sessions),
:mod:`.ratings` (leaderboards and a player's ratings) and :mod:`.ws` (the WebSocket a client
plays on)."""
