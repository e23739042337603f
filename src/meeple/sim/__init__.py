"""Many games at once: the simulator (local process pool or a Dask cluster), statistics,
tournaments and reports.

>>> from meeple.sim import play_game
>>> rec = play_game("gardens", {"level": 1}, ["random", "random"], seed=3)
>>> rec["bots"]
['random', 'random']
"""

from meeple.sim.runner import JobSpec, bot_seed, play_game, read_records, run_job, validate_job
from meeple.sim.stats import wilson

__all__ = ["JobSpec", "bot_seed", "play_game", "read_records", "run_job", "validate_job", "wilson"]
