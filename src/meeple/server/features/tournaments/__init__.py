"""Tournaments: Swiss, Arena and round robin. So far its pure core, :mod:`.pairing`
(pairings, schedules and standings from dataclasses, no I/O); its rows, routes, pages and
the server's scheduler are built on it next, and it is not yet wired into the app."""
