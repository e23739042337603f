"""The same job on a Dask cluster gives exactly the records of a local run."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.sim.runner import JobSpec, read_records, run_job, strip_timings

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster_address() -> object:
    with distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1,
                                  processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_cluster_run_equals_local_run(cluster_address: str) -> None:
    job = JobSpec("gardens", ("greedy", "random"), n=3, seed=21, options={"level": 2})
    local = run_job(job)
    remote = run_job(job, cluster=cluster_address)
    assert [strip_timings(r) for r in remote] == [strip_timings(r) for r in local]


def test_simulate_cli_on_a_cluster(cluster_address: str, tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "c.jsonl"
    res = CliRunner().invoke(app, ["simulate", "gardens", "-n", "2", "--bots", "random,random",
                                   "--cluster", cluster_address, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert [r["seed"] for r in read_records(out)] == [0, 1]


def test_unreachable_cluster_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple.sim import runner as sim_runner

    monkeypatch.setattr(sim_runner, "CONNECT_TIMEOUT", "1s")
    res = CliRunner().invoke(app, ["simulate", "gardens", "-n", "1",
                                   "--cluster", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2
    assert "Dask scheduler" in res.output
