"""Arena: seeded, reproducible bot matches with rotated seats and Wilson intervals."""

import pytest

import krazy_core
from krazy_core.runs.arena import run_arena
from krazy_core.runs.jobs import play_game, wilson_interval
from krazy_core.bots import RandomBot, HeuristicBot, make_bot
from krazy_core import ConfigError, IllegalActionError


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_arena_is_reproducible_and_counts_every_game():
    game = krazy_core.make("krazy-kings")
    a = run_arena(game, ["heuristic", "random"], games=40, seed=3)
    b = run_arena(game, ["heuristic", "random"], games=40, seed=3)
    assert a.wins == b.wins and a.decisions == b.decisions
    assert a.games == 40 and sum(a.wins) == pytest.approx(40.0)
    assert len(a.decisions) == 40 and a.turn_limit_games <= 40


def test_heuristic_beats_random_in_krazy_kings():
    game = krazy_core.make("krazy-kings", num_players=4)
    r = run_arena(game, ["heuristic", "random", "random", "random"], games=400, seed=11)
    lo, _ = r.interval(0)
    assert lo > 0.25, f"HeuristicBot's win rate {r.win_rate(0):.2f} is not above the fair share"


def test_bots_share_one_protocol_and_fail_clearly():
    game = krazy_core.make("krazy-kings")
    s = game.new_initial_state(seed=1)
    for bot in (RandomBot(seed=1), HeuristicBot(seed=1), make_bot("random", seed=2)):
        a = bot.step(s)
        assert a in s.legal_actions()
        assert type(bot)(seed=1).step(s) == type(bot)(seed=1).step(s)
    with pytest.raises(TypeError):
        RandomBot(1)                     # options are keyword-only
    with pytest.raises(ConfigError):
        make_bot("ismcts:lots")
    with pytest.raises(ConfigError):
        run_arena(game, ["nobody"], games=2)
    done = game.new_initial_state(seed=2)
    play_game(game, ["random"] * 4, seed=2)
    while not done.is_terminal():
        done.apply_action(done.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        RandomBot(seed=1).step(done)
    with pytest.raises(IllegalActionError):
        HeuristicBot(seed=1).step(done)


def test_make_bot_ismcts_options():
    """``ismcts:BUDGET:NAME=VALUE...`` passes search options through, checked."""
    b = make_bot("ismcts:200:rollout=random:max_rollout=40:exploration=0.3:horizon=game", seed=3)
    opts = b.options
    assert (opts["iterations"], opts["rollout"], opts["max_rollout"], opts["exploration"],
            opts["horizon"]) == (200, "random", 40, 0.3, "game")
    assert make_bot("ismcts:0.5s", seed=1).options["time_limit"] == 0.5
    assert make_bot("ismcts:paired=true:100", seed=1).options["paired"] is True
    for bad, words in [("ismcts:100:foo=1", "unknown search option 'foo'"),
                       ("ismcts:100:200", "one budget"),
                       ("ismcts:100:seed=4", "seed"),
                       ("ismcts:100:rollout=smart", "rollout must be one of"),
                       ("ismcts-100", "bad bot")]:
        with pytest.raises(ConfigError, match=words):
            make_bot(bad, seed=1)
