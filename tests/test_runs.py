"""Batches, backends, the results store, tournaments, SPRT and self-play (local backends;
the Ray backend is tested in test_ray.py)."""

import errno
import json
import math
import os

import pytest

import krazy_core
from krazy_core.runs.arena import run_arena
from krazy_core.runs.jobs import seating, duplicate_block, rotations
from krazy_core.errors import ConfigError
from krazy_core.runs.runner import InlineRunner, LocalRunner, make_runner
from krazy_core.runs.sprt import SPRT, elo_to_score, run_sprt
from krazy_core.runs.store import Store, StoreError
from krazy_core.runs.tournament import Tournament, plan_tables, run_tournament, plot_ratings, tournament_job

BOTS4 = ["random", "heuristic", "ismcts:8", "ismcts:8:rollout=random"]


class Stop(Exception):
    pass


def _kk(n=4):
    return krazy_core.make("krazy-kings", num_players=n)


# ------------------------------------------------------------------ schedules
def test_duplicate_schedule_seats_every_bot_everywhere_on_the_same_deals():
    game = _kk(4)
    job = tournament_job(game, BOTS4, 10, seed=3)
    assert job["games"] == 12 and plan_tables(4, 4) == [[0, 1, 2, 3]]   # rounded to whole deals
    seen = {}
    for g in range(job["games"]):
        idx, words, deal, _ = seating(job, g)
        assert sorted(idx) == [0, 1, 2, 3]
        for s, b in enumerate(idx):
            seen.setdefault(deal, set()).add((b, s))
    assert sorted(seen) == [3, 4, 5]
    for deal, pairs in seen.items():               # each deal: every bot in every seat
        assert pairs == {(b, s) for b in range(4) for s in range(4)}
    assert rotations([0, 1, 0, 1]) == [0, 1] and len(duplicate_block(plan_tables(3, 2))) == 6


# ------------------------------------------------------------------ backends agree
@pytest.mark.slow
def test_same_seeds_same_results_in_process_and_local_processes():
    game = _kk(4)
    a = run_tournament(game, BOTS4, 24, seed=5, runner=InlineRunner(), batch_size=4)
    with LocalRunner(2) as r:
        b = run_tournament(game, BOTS4, 24, seed=5, runner=r, batch_size=8)
    assert a.games == b.games == 24
    assert a.fingerprint() == b.fingerprint()
    s1 = run_arena(game, ["heuristic", "random"], 40, seed=2, runner=InlineRunner(), batch_size=3)
    s2 = run_arena(game, ["heuristic", "random"], 40, seed=2, workers=2)
    assert (s1.wins, s1.decisions, s1.turns) == (s2.wins, s2.decisions, s2.turns)


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(tmp_path):
    game = _kk(4)
    clean = run_tournament(game, BOTS4[:3], 24, seed=1, batch_size=4)
    marker = tmp_path / "killed"
    store = Store(str(tmp_path / "r.sqlite"))
    with LocalRunner(2) as r:
        hit = run_tournament(game, BOTS4[:3], 24, seed=1, runner=r, batch_size=4,
                             store=store, fault=(2, str(marker)))
        assert r.retries >= 1                       # the pool was rebuilt, batch 2 ran again
    assert marker.exists() and int(marker.read_text()) != os.getpid()   # a worker really died
    assert hit.fingerprint() == clean.fingerprint()
    assert store.count_games(hit.job_id) == 24
    assert [g[0] for g in store.games(hit.job_id)] == list(range(24))


def test_issue16_item5_a_huge_simulate_streams_batches_through_a_bounded_queue():
    """``krazy simulate --games 100000000 --workers 2`` built one task per game up front:
    now batches are pulled lazily and at most ``max_pending`` wait at once."""
    game = _kk(4)
    delivered = []

    def progress(k):
        delivered.append(k)
        if len(delivered) >= 5:
            raise Stop

    runner = LocalRunner(2)
    with pytest.raises(Stop):
        run_arena(game, ["heuristic", "random"], 100_000_000, seed=0, runner=runner, progress=progress)
    runner.close()
    assert all(k == 256 for k in delivered)        # batches of many games, never one per game
    assert runner.peak_pending <= runner.max_pending == 6
    assert runner.pulled <= len(delivered) + runner.max_pending


def test_an_interrupted_tournament_resumes_from_the_store(tmp_path):
    game = _kk(4)
    path = str(tmp_path / "t.sqlite")
    full = run_tournament(game, BOTS4, 32, seed=4, batch_size=4)
    seen = []

    def progress(k):
        seen.append(k)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with Store(path) as st, pytest.raises(KeyboardInterrupt):
        run_tournament(game, BOTS4, 32, seed=4, batch_size=4, store=st, progress=progress)
    with Store(path) as st:
        jid = next(iter(st._db.execute("SELECT job_id FROM jobs")))[0]
        assert st.count_games(jid) == 12            # the three batches finished, kept
        r = InlineRunner()
        again = run_tournament(game, BOTS4, 32, seed=4, batch_size=16, runner=r, store=st)
        assert r.pulled == 5                       # only the missing batches played (batch size kept: 4)
        assert st.count_games(jid) == 32
    assert again.fingerprint() == full.fingerprint()


def test_store_refuses_a_folder_and_keeps_batches_once(tmp_path):
    from krazy_core.runs.store import open_store
    with pytest.raises(ConfigError, match="is a folder"):
        open_store(str(tmp_path))
    with pytest.raises(StoreError, match="not a folder"):
        Store(str(tmp_path / "no" / "such" / "x.sqlite"))
    with Store(str(tmp_path / "s.sqlite")) as st:
        jid, size = st.open_job("simulate", {"a": 1}, 7)
        assert size == 7 and st.open_job("simulate", {"a": 1}, 9) == (jid, 7)
        rec = [(0, [1.0, 0.0], 10, None, False)]
        assert st.add_batch(jid, 0, rec) is True
        assert st.add_batch(jid, 0, rec) is False   # a re-run batch is stored once
        assert st.count_games(jid) == 1


@pytest.mark.slow
def test_a_full_disk_under_the_store_keeps_the_batches_before(tmp_path):
    """SQLite's own "database or disk is full" (``PRAGMA max_page_count``): a clear
    ``StoreError``, the batches stored before kept, and the same command resumes."""
    game = _kk(4)
    path = str(tmp_path / "full.sqlite")
    with Store(path) as st:
        pages = st._db.execute("PRAGMA page_count").fetchone()[0]
        st._db.execute(f"PRAGMA max_page_count = {pages + 10}")   # room for two batches
        with pytest.raises(StoreError, match="full.*stored before is kept"):
            run_tournament(game, BOTS4[:2], 4000, seed=1, batch_size=200, store=st)
        jid = next(iter(st._db.execute("SELECT job_id FROM jobs")))[0]
        kept = st.count_games(jid)
        assert 0 < kept < 4000 and kept % 200 == 0 and len(st.done_batches(jid)) == kept // 200
    with Store(path) as st:                          # space again: resume to the end
        t = run_tournament(game, BOTS4[:2], 4000, seed=1, batch_size=200, store=st)
        assert st.count_games(jid) == 4000
    assert t.fingerprint() == run_tournament(game, BOTS4[:2], 4000, seed=1, batch_size=500).fingerprint()


# ------------------------------------------------------------------ tournament
@pytest.mark.slow
def test_tournament_ratings_pairwise_table_and_plots(tmp_path):
    t = run_tournament(_kk(4), BOTS4, 80, seed=9, workers=1)
    rows = t.ratings()
    # random rates last; the heuristic and the two tiny searches are within each other's
    # intervals (ismcts:8 reads its opponents since issue 33: the heuristic was first before)
    assert rows[-1][0] == "random" and all(lo < mu < hi for _, mu, lo, hi in rows)
    assert [b for b, *_ in rows].index("heuristic") <= 1
    h, r = BOTS4.index("heuristic"), BOTS4.index("random")
    pw = t.pairwise()
    assert pw[h][r] > 0.5
    for a in range(4):
        assert pw[a][a] is None and t.played[a] == 80
        for b in range(4):
            if a != b:
                assert pw[a][b] + pw[b][a] == pytest.approx(1.0)
    png, svg = tmp_path / "r.png", tmp_path / "r.svg"
    plot_ratings(t, str(png))
    plot_ratings(t, str(svg))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:400] and b"heuristic" in svg.read_bytes()
    with pytest.raises(ConfigError, match=".png or .svg"):
        plot_ratings(t, str(tmp_path / "r.jpg"))


def test_tournament_rates_tied_bots_alike():
    # one game of four bots, one winner and three tied losers (the returns of most Krazy Kings
    # games): the three losers end equal, below the winner, whatever their order in the list.
    # openskill 6.0.0 (Python 3.9) read float scores as list positions, rating the tied losers
    # in bot order (random above heuristic in the 80-game tournament above)
    t = Tournament("krazy-kings", 4, list(BOTS4), tournament_job(_kk(4), BOTS4, 4, seed=0))
    idx = seating(t.job, 0)[0]
    winner = idx.index(3)                          # the seat of the last bot in the list wins
    t.add((0, [1.0 if s == winner else 0.0 for s in range(4)], 10, 10, 0))
    mu = {w: m for w, m, _, _ in t.ratings()}
    assert mu["random"] == mu["heuristic"] == mu["ismcts:8"] < mu["ismcts:8:rollout=random"]
    assert mu["random"] == pytest.approx(24.068, abs=1e-3) and mu[BOTS4[3]] == pytest.approx(27.795, abs=1e-3)
    # a second game, seats scoring 0.5, 0, 0.5, 0: two pairs of ties (equal ranks within each)
    before = dict(mu)
    t.add((1, [0.5, 0.0, 0.5, 0.0], 10, 10, 0))
    mu = {w: m for w, m, _, _ in t.ratings()}
    idx = seating(t.job, 1)[0]
    top, low = [BOTS4[idx[s]] for s in (0, 2)], [BOTS4[idx[s]] for s in (1, 3)]
    assert all(mu[w] > before[w] for w in top) and all(mu[w] < before[w] for w in low)


def test_two_player_tournament_uses_bradley_terry():
    t = run_tournament(_kk(2), ["random", "heuristic", "ismcts:8"], 36, seed=2)
    assert set(t._models) == {True}                # every game met two bots: BradleyTerryFull
    assert type(t._models[True]).__name__ == "BradleyTerryFull"
    assert t.ratings()[0][0] in ("heuristic", "ismcts:8") and sum(t.played) == 72


def test_tournament_plays_only_the_tables_named():
    tables = [[0, 1], [1, 2]]                      # 0 and 2 never meet
    t = run_tournament(_kk(2), ["random", "heuristic", "ismcts:8"], 8, seed=2, tables=tables)
    assert t.games == 8 and t.job["tables"] == tables
    assert t.pair_games[0][2] == t.pair_games[2][0] == 0 and t.pair_games[0][1] == 4
    assert t.played == [4, 8, 4]
    # a level in two of three seats: every game is between the two bots only
    job = tournament_job(krazy_core.make("krass-kariert", num_players=3), ["random", "heuristic"], 6,
                         tables=[[0, 0, 1], [0, 1, 1]])
    assert job["games"] == 6 and all(sorted(set(seating(job, g)[0])) == [0, 1] for g in range(6))


@pytest.mark.parametrize("tables", [[[0]], [[0, 3]], [[0, -1]], []])
def test_tournament_bad_tables(tables):
    with pytest.raises(ConfigError, match="table"):
        tournament_job(_kk(2), ["random", "heuristic", "ismcts:8"], 8, tables=tables)


@pytest.mark.parametrize("bots, words", [(["random"], "at least 2"), (["random", "nobody"], "unknown bot"),
                                          (["random", "random"], "twice")])
def test_tournament_bad_bots(bots, words):
    with pytest.raises(ConfigError, match=words):
        run_tournament(_kk(4), bots, 8)


# ------------------------------------------------------------------ sprt
def test_sprt_llr_matches_the_gsprt_formula():
    t = SPRT(0, 20, 0.05, 0.05)
    xs = [1.0, 0.5, 0.75, 0.25, 1.0, 0.5]
    for x in xs:
        t.add(x)
    n, m = len(xs), sum(xs) / len(xs)
    var = (sum((x - m) ** 2 for x in xs) + 0.25) / (n + 1)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    assert t.llr() == pytest.approx((s1 - s0) / var * sum(x - (s0 + s1) / 2 for x in xs))
    assert t.upper == pytest.approx(math.log(0.95 / 0.05)) and t.lower == pytest.approx(-t.upper)
    assert elo_to_score(0) == 0.5 and elo_to_score(400) == pytest.approx(10 / 11)


def test_sprt_decides_both_ways_and_the_same_on_every_backend():
    game = _kk(2)
    up = run_sprt(game, ["random", "heuristic"], seed=1, batch_size=2)
    assert up.decision == "H1" and up.games == 2 * up.pairs and 10 < up.games < 2000
    with LocalRunner(2) as r:
        again = run_sprt(game, ["random", "heuristic"], seed=1, runner=r, batch_size=16)
    assert (again.decision, again.games, again.test.llr()) == (up.decision, up.games, up.test.llr())
    down = run_sprt(game, ["heuristic", "random"], seed=1)
    assert down.decision == "H0"
    undecided = run_sprt(game, ["random", "heuristic"], seed=1, games=6)
    assert undecided.decision is None and undecided.games == 6


@pytest.mark.parametrize("kw, words", [({"alpha": 0}, "alpha"), ({"beta": 0.7}, "beta"),
                                        ({"elo0": 10, "elo1": 5}, "below"), ({"games": 0}, "max-games")])
def test_sprt_bad_flags(kw, words):
    with pytest.raises(ConfigError, match=words):
        run_sprt(_kk(2), ["random", "heuristic"], **kw)
    with pytest.raises(ConfigError, match="two different bots"):
        run_sprt(_kk(2), ["random", "random"])


# ------------------------------------------------------------------ self-play
@pytest.mark.slow
def test_selfplay_shards_are_readable_and_hold_every_decision(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from krazy_core.runs.selfplay import run_selfplay
    game = krazy_core.make("krass-kariert")
    out = tmp_path / "sp"
    s = run_selfplay(game, "ismcts:10", 5, out=str(out), seed=3, batch_size=2)
    assert s.shards == 3 and s.games == 5
    table = pq.read_table(str(out))
    assert table.num_rows == s.decisions > 0
    meta = pq.read_schema(str(out / "shard-000000.parquet")).metadata
    assert meta[b"krazy.game_id"] == b"krass-kariert" and meta[b"krazy.schema_version"] == b"1"
    rows = table.to_pylist()
    for g in range(5):                              # replaying the actions reaches the same returns
        mine = [r for r in rows if r["game"] == g]
        st = game.new_initial_state(seed=mine[0]["deal_seed"])
        for r in mine:
            assert r["player"] == st.current_player()
            assert r["observation"] == pytest.approx(list(st.observation_tensor(r["player"])))
            assert r["mask"][r["action"]] and sum(r["mask"]) == len(st.legal_actions())
            assert set(r["policy_actions"]) <= set(st.legal_actions())
            assert sum(r["policy_visits"]) == pytest.approx(1.0, abs=1e-5)
            st.apply_action(r["action"])
        assert st.is_terminal() and mine[0]["returns"] == pytest.approx(list(st.returns()))
    again = run_selfplay(game, "ismcts:10", 5, out=str(out), seed=3)
    assert again.skipped == 3 and again.shards == 0          # resumed (2 games a shard kept)
    with pytest.raises(ConfigError, match="another self-play job"):
        run_selfplay(game, "ismcts:11", 5, out=str(out), seed=3, batch_size=2)


def test_selfplay_full_disk_and_unwritable_out_lose_nothing(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from krazy_core.runs.selfplay import run_selfplay, SelfplayError
    game = _kk(4)
    out = tmp_path / "sp"
    calls = []

    def full_after_two(table, path):
        calls.append(path)
        if len(calls) > 2:
            with open(path, "wb") as f:
                f.write(b"PAR1 half a file")
            raise OSError(errno.ENOSPC, "No space left on device")
        pq.write_table(table, path)

    with pytest.raises(SelfplayError, match="disk is full.*2 shards already written"):
        run_selfplay(game, "heuristic", 8, out=str(out), batch_size=2, writer=full_after_two)
    names = sorted(os.listdir(out))
    assert names == ["_selfplay.json", "shard-000000.parquet", "shard-000001.parquet"]
    assert pq.read_table(str(out)).num_rows > 0
    done = run_selfplay(game, "heuristic", 8, out=str(out), batch_size=2)        # resumes
    assert done.skipped == 2 and done.shards == 2
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="is a file"):
        run_selfplay(game, "heuristic", 2, out=str(blocker))
    with pytest.raises(ConfigError, match="cannot be written"):
        run_selfplay(game, "heuristic", 2, out=str(blocker / "sub"))


# ------------------------------------------------------------------ CLI
def _cli(capsys, *argv):
    from krazy_core.cli import main
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_cli_tournament_sprt_selfplay(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = _cli(capsys, "tournament", "krazy-kings", "--bots", ",".join(BOTS4), "--games", "16",
                     "--plot", "r.png", "--seed", "2")
    assert code == 0 and "Ratings" in out and "Head to head" in out and "16 games" in out
    assert (tmp_path / "r.png").stat().st_size > 1000 and (tmp_path / "krazy-results.sqlite").exists()
    code, out = _cli(capsys, "sprt", "krazy-kings", "random", "heuristic", "--players", "2", "--no-store")
    assert code == 0 and "Yes: heuristic is stronger than random" in out and "games" in out
    code, out = _cli(capsys, "selfplay", "krazy-kings", "--bot", "ismcts:5", "--games", "2", "--out", "sp")
    assert code == 0 and "positions/s" in out and (tmp_path / "sp" / "shard-000000.parquet").exists()
    code, out = _cli(capsys, "simulate", "krazy-kings", "--games", "20", "--workers", "2", "--store", "s.sqlite")
    assert code == 0 and "20 games" in out


@pytest.mark.parametrize("argv, words", [
    (["tournament", "krazy-kings", "--bots", "random,nobody"], "unknown bot"),
    (["tournament", "krazy-kings", "--bots", "random,heuristic", "--games", "0"], "--games"),
    (["tournament", "krazy-kings", "--bots", "random,heuristic", "--games", "10000000000000"], "more than"),
    (["tournament", "krazy-kings", "--bots", "random,heuristic", "--plot", "x.jpg"], ".png or .svg"),
    (["tournament", "krazy-kings", "--bots", "random,heuristic", "--workers", "0"], "--workers"),
    (["simulate", "krazy-kings", "--games", "0"], "--games"),
    (["simulate", "krazy-kings", "--games", "-5", "--workers", "2"], "--games"),
    (["sprt", "krazy-kings", "random", "nobody"], "unknown bot"),
    (["sprt", "krazy-kings", "random", "heuristic", "--alpha", "1"], "alpha"),
    (["selfplay", "krazy-kings", "--bot", "nobody", "--out", "sp"], "unknown bot"),
    (["selfplay", "krazy-kings", "--games", "0", "--out", "sp"], "--games"),
    (["tournament", "krazy-kings", "--bots", "random,heuristic", "--store", "no/such/r.sqlite"], "not a folder"),
])
def test_cli_bad_input_is_a_clear_error(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    code, out = _cli(capsys, *argv)
    assert code == 2 and "error:" in out and words in " ".join(out.split())   # rich wraps lines
    assert not (tmp_path / "sp").exists()          # nothing made before the check


@pytest.mark.slow
def test_cli_unreachable_ray_address_is_a_clear_error(tmp_path):
    """In a fresh process (this one may have joined the session's Ray cluster)."""
    import subprocess
    import sys
    pytest.importorskip("ray")
    root = os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__)))
    env = dict(os.environ, RAY_ADDRESS="127.0.0.1:9", PYTHONPATH=root, COLUMNS="200")   # port 9: nothing listens
    for argv in (["simulate", "krazy-kings", "--games", "4"],
                 ["tournament", "krazy-kings", "--bots", "random,heuristic", "--games", "4"]):
        p = subprocess.run([sys.executable, "-m", "krazy_core", *argv], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, p.stdout + p.stderr
        assert "unreachable" in p.stdout and "RAY_ADDRESS" in p.stdout and "Traceback" not in p.stderr
