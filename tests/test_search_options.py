"""The search's options as one frozen dataclass (``krazy_core.search.options.SearchOptions``):
keyword options and ``options=`` search alike; a bad value is a ``ConfigError``."""
import dataclasses

import pytest

import krazy_core
from krazy_core.errors import ConfigError
from krazy_core.search import ismcts
from krazy_core.search.options import OPTIONS, SearchOptions, check_options


def test_fields_are_the_options_in_order():
    assert tuple(f.name for f in dataclasses.fields(SearchOptions)) == OPTIONS
    assert ismcts.SearchOptions is SearchOptions and ismcts.check_options is check_options


def test_frozen_and_validated():
    o = SearchOptions(iterations=10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.iterations = 5
    with pytest.raises(ConfigError, match="give a budget"):
        SearchOptions()
    with pytest.raises(ConfigError, match="threads"):
        SearchOptions(iterations=10, threads=0)
    with pytest.raises(ConfigError, match="prior must be"):
        check_options({"iterations": 10, "prior": None})
    with pytest.raises(ConfigError, match="unknown search option"):
        check_options({"iterations": 10, "nope": 1})


def test_resolved_defaults():
    o = check_options({"iterations": 10, "seed": 3})
    assert o["prior"] == 0.0 and o["max_rollout"] is None and o["seed"] == 3
    o = check_options({"iterations": 10, "seed": 3, "prior_from": "model", "value": "model"})
    assert o["prior"] == 1.0 and o["max_rollout"] == 0
    assert check_options({"iterations": 10, "prior_from": "model", "prior": 0})["prior"] == 0


@pytest.mark.parametrize("game_id", ["kings-rummy", "krass-kariert"])
def test_options_object_searches_as_keywords(game_id):
    state = krazy_core.make(game_id).new_initial_state(seed=4)
    kw = dict(iterations=60, seed=9, **ismcts.game_defaults(state))
    a = ismcts.search(state, **kw)
    b = ismcts.search(state, options=SearchOptions(**kw))
    c = ismcts.search(state, options=SearchOptions(iterations=5, seed=1), **kw)
    assert a.visits == b.visits == c.visits and a.action == b.action == c.action
    with pytest.raises(TypeError):
        ismcts.search(state, options=kw)
