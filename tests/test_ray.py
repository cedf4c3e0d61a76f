"""The Ray backend on a local cluster: one cluster for the whole session (ray.init(num_cpus=2),
~20 s and ~0.8 GB to start), shut down at the end.  Every Ray test is in this file."""

import os

import pytest

import krazy_core
from krazy_core.runs.arena import run_arena
from krazy_core.runs.runner import InlineRunner, LocalRunner, RayRunner
from krazy_core.runs.sprt import run_sprt
from krazy_core.runs.store import Store
from krazy_core.runs.tournament import plot_ratings, run_tournament

ray = pytest.importorskip("ray")

# four bot configurations per game, cheap enough for CI (Crazy Rummy's search is the slowest)
CONFIGS = {
    "krazy-kings": (["random", "heuristic", "ismcts:16", "ismcts:16:rollout=random"], 24),
    "kings-rummy": (["random", "heuristic", "ismcts:4", "ismcts:4:rollout=random"], 8),
    "contract-rummy": (["random", "heuristic", "ismcts:2", "ismcts:2:exploration=2.0"], 4),
    "krass-kariert": (["random", "heuristic", "ismcts:8", "ismcts:8:rollout=random"], 16),
}


@pytest.fixture(scope="session")
def ray_cluster():
    from krazy_core.runs.runner import ray_init
    started = not ray.is_initialized()
    if started:
        ray_init(num_cpus=2)
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture
def on_ray(ray_cluster):
    r = RayRunner()
    yield r
    r.close()


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
@pytest.mark.slow
def test_four_bot_tournament_is_the_same_with_and_without_ray(game_id, on_ray, tmp_path):
    bots, games = CONFIGS[game_id]
    game = krazy_core.make(game_id)
    with LocalRunner(2) as local:
        a = run_tournament(game, bots, games, seed=1, runner=local, batch_size=4)
    b = run_tournament(game, bots, games, seed=1, runner=on_ray, batch_size=4)
    assert on_ray.workers == 2 and b.backend.startswith("Ray")
    assert a.games == b.games == games and len(a.ratings()) == 4
    assert a.fingerprint() == b.fingerprint()
    assert plot_ratings(b, str(tmp_path / "r.svg")) and (tmp_path / "r.svg").stat().st_size > 1000


@pytest.mark.slow
def test_simulate_and_sprt_are_the_same_on_ray(on_ray):
    game = krazy_core.make("krazy-kings")
    s1 = run_arena(game, ["heuristic", "random"], 60, seed=3, runner=InlineRunner())
    s2 = run_arena(game, ["heuristic", "random"], 60, seed=3, runner=on_ray, batch_size=7)
    assert (s1.wins, s1.decisions, s1.turns) == (s2.wins, s2.decisions, s2.turns)
    g2 = krazy_core.make("krazy-kings", num_players=2)
    x = run_sprt(g2, ["random", "heuristic"], seed=1)
    y = run_sprt(g2, ["random", "heuristic"], seed=1, runner=on_ray)
    assert y.decision == x.decision == "H1" and y.games == x.games and y.test.llr() == x.test.llr()


@pytest.mark.slow
def test_a_ray_worker_killed_mid_batch_loses_nothing(on_ray, tmp_path):
    game = krazy_core.make("krazy-kings")
    bots = ["random", "heuristic", "ismcts:8"]
    clean = run_tournament(game, bots, 24, seed=2, runner=InlineRunner(), batch_size=4)
    marker = tmp_path / "killed"
    with Store(str(tmp_path / "r.sqlite")) as st:
        hit = run_tournament(game, bots, 24, seed=2, runner=on_ray, batch_size=4, store=st,
                             fault=(1, str(marker)))
        assert st.count_games(hit.job_id) == 24
    assert marker.exists() and int(marker.read_text()) != os.getpid()   # a Ray worker died
    assert hit.fingerprint() == clean.fingerprint()


@pytest.mark.slow
def test_selfplay_on_ray_writes_the_same_shards(on_ray, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from krazy_core.runs.selfplay import run_selfplay
    game = krazy_core.make("krazy-kings")
    run_selfplay(game, "ismcts:8", 4, out=str(tmp_path / "a"), seed=5, batch_size=2, runner=InlineRunner())
    s = run_selfplay(game, "ismcts:8", 4, out=str(tmp_path / "b"), seed=5, batch_size=2, runner=on_ray,
                     fault=(1, str(tmp_path / "killed")))
    assert s.shards == 2 and (tmp_path / "killed").exists()
    a, b = pq.read_table(str(tmp_path / "a")), pq.read_table(str(tmp_path / "b"))
    assert a.num_rows == b.num_rows == s.decisions and a.equals(b)


@pytest.mark.slow
def test_cli_ray_flag_joins_the_running_cluster(ray_cluster, capsys, tmp_path, monkeypatch):
    from krazy_core.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "krazy-kings", "--games", "30", "--ray"]) == 0
    out = capsys.readouterr().out
    assert "30 games" in out
    assert ray.is_initialized()                    # the CLI left the session's cluster running
