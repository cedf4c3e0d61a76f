"""PettingZoo AEC env (krazy_core.envs.pettingzoo): PettingZoo's own ``api_test`` and
``seed_test``, as they ship, for every game and player count; the illegal-action rule;
KK-20's turn cap as a truncation; ansi rendering; options passed through."""
import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import krazy_core  # noqa: E402
from krazy_core.envs.pettingzoo import env as make_env  # noqa: E402
from krazy_core.errors import ConfigError, IllegalActionError  # noqa: E402
from krazy_core.game import get_spec  # noqa: E402

from helpers import GAMES, slow_cases  # noqa: E402

TABLES = [(g, n) for g in GAMES for n in range(get_spec(g).min_players, get_spec(g).max_players + 1)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game_id,n", TABLES)
def test_pettingzoo_api_test(game_id, n):
    api_test(make_env(game_id, num_players=n, render_mode="ansi"), num_cycles=1000)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game_id,n", TABLES)
@slow_cases('kings-rummy-5', 'kings-rummy-6')
def test_pettingzoo_seed_test(game_id, n):
    seed_test(lambda: make_env(game_id, num_players=n), num_cycles=500)


def _play_to_end(e, seed=0):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = {a: 0.0 for a in e.possible_agents}
    e.ends = {}
    for agent in e.agent_iter():
        obs, r, term, trunc, info = e.last()
        rewards[agent] += r
        if term or trunc:
            e.ends[agent] = (term, trunc)
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return rewards


def test_rewards_are_the_returns():
    """Rewards at the end are returns(); a game won by play terminates every agent, one
    ended by the turn cap (KK-20) truncates them."""
    kinds = set()
    for seed in range(6):
        e = make_env("krazy-kings", num_players=3)
        rewards = _play_to_end(e, seed)
        st = e.unwrapped.state_obj
        assert [rewards[f"player_{i}"] for i in range(3)] == st.returns()
        won = st.observation(0)["winner"] >= 0
        assert set(e.ends.values()) == {(True, False) if won else (False, True)}
        kinds.add(won)
    assert True in kinds


def test_illegal_action_ends_the_game_with_minus_one():
    e = make_env("kings-rummy", num_players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.state_obj.to_json()
    e.step(bad)
    assert e.unwrapped.state_obj.to_json() == before           # the rules state is untouched
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != agent)
    assert e.infos[agent]["illegal_action"] is True
    for a in e.agent_iter():
        obs, r, term, trunc, info = e.last()
        assert term and not obs["action_mask"].any()
        e.step(None)


def test_illegal_action_raise_leaves_the_state():
    e = make_env("krass-kariert", num_players=4, illegal_action="raise")
    e.reset(seed=2)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.state_obj.to_json()
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert e.unwrapped.state_obj.to_json() == before
    assert not any(e.terminations.values())


def test_kk20_turn_cap_truncates_every_agent():
    e = make_env("krazy-kings", num_players=4, max_turns=3)
    rewards = _play_to_end(e, 4)
    assert e.ends == {f"player_{i}": (False, True) for i in range(4)}
    st = e.unwrapped.state_obj
    assert st.observation(0)["winner"] < 0
    assert abs(sum(rewards.values()) - 1.0) < 1e-9


def test_render_ansi_and_options():
    e = make_env("krazy-kings", num_players=2, render_mode="ansi", doubles_reverse="never")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "Krazy Kings" in text
    assert e.unwrapped.game.options.doubles_reverse == "never"
    with pytest.raises(ConfigError):
        make_env("krazy-kings", num_players=9)
    with pytest.raises(ConfigError):
        make_env("krazy-kings", illegal_action="ignore")
    with pytest.raises(ConfigError):
        make_env("krazy-kings", render_mode="rgb_array")
