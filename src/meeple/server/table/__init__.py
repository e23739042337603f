"""The table core: the authority that commits moves, the broadcaster, the bots' scheduler and
pool, the committer, the protocol and the runtime of a table, with the lobby's, a table's and
the WebSocket's routes (:mod:`.routes`).

Nothing is imported here: a bot worker process imports :mod:`.botpool` and so this package, and
needs none of the web stack."""
