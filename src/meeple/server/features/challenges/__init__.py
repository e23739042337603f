"""Challenges: one account asks another (a person or a bot account) to a game. So far the
row (``rows.py``, migration 0016) and the read other features use (``store.open_challenges``);
routes and pages are not built yet."""
