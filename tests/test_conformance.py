"""One conformance test, parametrised over every registered game and variant (OpenSpiel's
game-conformance idea): the state contract of DESIGN.md holds for each of them."""

import json
import random

import numpy as np
import pytest

import krazy_core
from krazy_core import IllegalActionError, InvalidStateError, ConfigError
from krazy_core._state import simulate_random

from helpers import GAMES, random_playout, slow_cases

PLAYER_COUNTS = {}
for _g in GAMES:
    _spec = krazy_core.game.get_spec(_g)
    PLAYER_COUNTS[_g] = sorted({_spec.min_players, _spec.default_players, _spec.max_players})

CASES = [(g, n) for g in GAMES for n in PLAYER_COUNTS[g]]


@pytest.mark.parametrize("game_id,n", CASES)
@slow_cases('contract-rummy-2', 'contract-rummy-4', 'contract-rummy-6', 'kings-rummy-2',
            'kings-rummy-4', 'kings-rummy-7', 'krazy-kings-4', 'krazy-kings-5', 'krass-kariert-3',
            'krass-kariert-4', 'krass-kariert-5')
def test_random_playouts_keep_the_contract(game_id, n):
    game = krazy_core.make(game_id, num_players=n)
    nd = game.num_distinct_actions
    shape = game.observation_tensor_shape
    for seed in range(12):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            cp = state.current_player()
            assert 0 <= cp < n
            legal = state.legal_actions()
            assert legal, "a running game must offer its player an action"
            assert legal == sorted(set(legal))
            assert all(0 <= a < nd for a in legal)
            mask = state.legal_action_mask()
            assert mask.dtype == np.bool_ and mask.shape == (nd,)
            assert list(np.flatnonzero(mask)) == legal
            # JSON round trips cost O(events): every 7 steps early, sparser in long games
            check = steps % 7 == 0 and (steps < 350 or steps % 203 == 0)
            for p in (range(n) if check else (cp,)):
                t = state.observation_tensor(p)
                assert t.dtype == np.float32 and t.shape == shape
                json.dumps(state.observation(p))
            if check:
                c = state.clone()
                assert c == state and c is not state
                back = game.state_from_json(state.to_json())
                assert back == state
                assert back.to_json() == state.to_json()
            a = rng.choice(legal)
            state.apply_action(a)
            if check:
                c.apply_action(a)            # the clone follows the same path...
                assert c == state
            steps += 1
        assert state.legal_actions() == []
        assert not state.legal_action_mask().any()
        ret = state.returns()
        assert len(ret) == n
        assert all(game.min_utility <= r <= game.max_utility for r in ret)
        assert sum(ret) > 0, "someone wins or shares the win"
        assert state.current_player() == krazy_core.TERMINAL_PLAYER
        assert game.state_from_json(state.to_json()) == state


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_is_independent(game_id):
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=5)
    snap = state.to_json()
    c = state.clone()
    rng = random.Random(1)
    random_playout(c, rng, max_steps=40)
    assert state.to_json() == snap
    assert c != state


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game(game_id):
    game = krazy_core.make(game_id)
    a, b = game.new_initial_state(seed=99), game.new_initial_state(seed=99)
    assert a == b
    ra, rb = random.Random(3), random.Random(3)
    random_playout(a, ra)
    random_playout(b, rb)
    assert a == b and a.to_json() == b.to_json()
    assert game.new_initial_state(seed=100) != game.new_initial_state(seed=99)


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_action_raises_and_changes_nothing(game_id):
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=11)
    rng = random.Random(11)
    for _ in range(30):
        if state.is_terminal():
            break
        legal = set(state.legal_actions())
        illegal = [a for a in range(game.num_distinct_actions) if a not in legal]
        snap = state.to_json()
        for a in illegal[:5] + [-1, game.num_distinct_actions, 10 ** 30]:
            with pytest.raises(IllegalActionError):
                state.apply_action(a)
            assert state.to_json() == snap
        for bad in [None, 1.5, "no such move", [1], True]:
            with pytest.raises((IllegalActionError, TypeError)):
                state.apply_action(bad)
            assert state.to_json() == snap
        state.apply_action(rng.choice(sorted(legal)))
    random_playout(state, rng)
    snap = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(0)
    assert state.to_json() == snap


@pytest.mark.parametrize("game_id", GAMES)
def test_action_strings_round_trip(game_id):
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=21)
    rng = random.Random(21)
    for _ in range(60):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        texts = [state.action_to_string(a) for a in legal]
        assert len(set(texts)) == len(texts), "two legal actions share a name"
        for a, t in zip(legal, texts):
            assert state.string_to_action(t) == a
        state.apply_action(texts[rng.randrange(len(texts))])


def _mutations(doc):
    """Malformed and hostile variants of a state document."""
    body = doc["state"]
    for key in list(body):
        d = json.loads(json.dumps(doc))
        del d["state"][key]
        yield f"missing {key}", d
        for bad in (None, -1, 2 ** 70, "x", [], {}, [[-5]], 1e300, True, [2 ** 64] * 4, [0] * 200):
            d = json.loads(json.dumps(doc))
            d["state"][key] = bad
            yield f"{key}={bad!r:.30}", d
        value = body[key]
        if isinstance(value, list) and value:
            d = json.loads(json.dumps(doc))
            d["state"][key] = value[:-1]
            yield f"{key} truncated", d
            d = json.loads(json.dumps(doc))
            d["state"][key] = value + value[-1:]
            yield f"{key} extended", d
            if isinstance(value[0], list) and value[0]:
                d = json.loads(json.dumps(doc))
                d["state"][key][0] = value[0] + [value[0][0]] * 40
                yield f"{key}[0] stuffed", d
    for key in ("format", "game", "num_players", "options", "events", "history"):
        d = json.loads(json.dumps(doc))
        d[key] = {"x": [1]}
        yield f"top {key}", d
    if doc["history"]:
        for bad in ([256, 0], [-1, 0], [doc["num_players"], 0], [0, -1], [0, 2 ** 40],
                    [0, 1, 2], [0], ["0", 1], [0, 1.0], [True, 0], None, 7):
            d = json.loads(json.dumps(doc))
            d["history"][0] = bad
            yield f"history entry {bad!r}", d
    d = json.loads(json.dumps(doc))
    d["events"] = [[1, 2, 3]]
    yield "short event", d
    if doc["events"]:
        for bad_player in (256, -2, doc["num_players"]):
            d = json.loads(json.dumps(doc))
            d["events"][0][1] = bad_player
            yield f"event player {bad_player}", d
    d = json.loads(json.dumps(doc))
    d["extra"] = 1
    d["state"]["extra"] = 1
    yield "extra field", d


@pytest.mark.parametrize("game_id", GAMES)
def test_hostile_json_raises_invalid_state(game_id):
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=4)
    random_playout(state, random.Random(4), max_steps=25)
    text = state.to_json()
    doc = json.loads(text)
    for raw in ["", "{", "[]", "null", "1", '{"format": 1}', text[: len(text) // 2], "[" * 100000,
                b"\xff\xfe", 12, None, text.replace('"state"', '"stat"')]:
        with pytest.raises(InvalidStateError):
            game.state_from_json(raw)
    survived = 0
    for label, d in _mutations(doc):
        try:
            s = game.state_from_json(json.dumps(d))
        except InvalidStateError:
            continue
        # Whatever loads must be a playable, consistent state.
        survived += 1
        random_playout(s, random.Random(0), max_steps=2000)
    other = krazy_core.make(GAMES[0] if GAMES[0] != game_id else GAMES[-1])
    if other.game_id != game_id:
        with pytest.raises(InvalidStateError):
            other.state_from_json(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_config_raises_config_error(game_id):
    spec = krazy_core.game.get_spec(game_id)
    with pytest.raises(ConfigError, match="no_such_option"):
        krazy_core.make(game_id, no_such_option=1)
    with pytest.raises(ConfigError):
        krazy_core.make(game_id, num_players=spec.max_players + 1)
    with pytest.raises(ConfigError):
        krazy_core.make(game_id, num_players=spec.min_players - 1)
    for opt in spec.options:
        with pytest.raises(ConfigError, match=opt.name):
            krazy_core.make(game_id, **{opt.name: "not-a-valid-value" if opt.kind is not str else 12345})
        if opt.kind is int:
            with pytest.raises(ConfigError, match=opt.name):
                krazy_core.make(game_id, **{opt.name: opt.hi + 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_keeps_own_view(game_id):
    game = krazy_core.make(game_id)
    rng = random.Random(8)
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        random_playout(state, rng, max_steps=rng.randrange(1, 400))
        if state.is_terminal():
            continue
        p = state.current_player()
        d = state.determinize(p, seed=seed)
        assert d.observation(p) == state.observation(p)
        assert d.legal_actions() == state.legal_actions()
        random_playout(d, rng)          # a determinization is a playable state
        for q in range(game.num_players):
            # for any seat: the player to act is asked to act, which is public, so every
            # sample lets them act
            d = state.determinize(q, seed=seed + 7)
            assert d.observation(q) == state.observation(q)
            assert not d.is_terminal() and d.legal_actions()


@pytest.mark.parametrize("game_id,n", CASES)
def test_random_action_is_the_uniform_pick_of_legal_actions(game_id, n):
    """ops.random_action (optional) must be exactly legal[kz_bounded(rng, len(legal))]."""
    from krazy_core.rng import Rng
    game = krazy_core.make(game_id, num_players=n)
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for k in range(3):
                sd = seed * 7919 + k + len(legal)
                assert state.random_action(sd) == legal[Rng(sd).bounded(len(legal))]
            state.apply_action(rng.choice(legal))
        assert state.random_action(1) == -1


@pytest.mark.parametrize("game_id,n", CASES)
def test_random_playout_is_the_random_action_loop(game_id, n):
    """ops.random_playout (optional) must be exactly the loop of random_action and
    apply_action it replaces (ops.h): the same steps and the same final state, capped or not,
    from fresh, mid-game and determinized states."""
    game = krazy_core.make(game_id, num_players=n)
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        random_playout(state, rng, max_steps=rng.randrange(0, 30))
        starts = [state] + ([state.determinize(state.current_player(), seed=seed)]
                            if not state.is_terminal() else [])
        for start in starts:
            for cap in (-1, 0, 1, 7, 40):
                a, b = start.clone(), start.clone()
                steps = a._random_playout(seed + 11, cap, True)
                assert steps == b._random_playout(seed + 11, cap, False)
                assert a == b and a.to_json() == b.to_json()
                assert cap < 0 or steps <= cap


@pytest.mark.parametrize("game_id", GAMES)
def test_in_core_random_playouts(game_id):
    game = krazy_core.make(game_id)
    out = simulate_random(game, 20, seed=1)
    assert out["games"] == 20 and out["decisions"] > 20
    assert simulate_random(game, 20, seed=1)["decisions"] == out["decisions"]
    with pytest.raises(ConfigError):
        simulate_random(game, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_pickle_round_trip(game_id):
    import pickle
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=2)
    assert pickle.loads(pickle.dumps(state)) == state
    assert pickle.loads(pickle.dumps(game)) == game


@pytest.mark.parametrize("game_id", GAMES)
def test_hostile_event_player_raises_invalid_state(game_id):
    """An event's player is -1 (the table) or a seat: anything else is refused on load, so
    no renderer indexes a seat list with it."""
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=4)
    random_playout(state, random.Random(4), max_steps=25)
    doc = json.loads(state.to_json())
    assert doc["events"]
    for bad_player in (256, -2, game.num_players):
        d = json.loads(json.dumps(doc))
        d["events"][0][1] = bad_player
        with pytest.raises(InvalidStateError, match="is not a seat"):
            game.state_from_json(json.dumps(d))


@pytest.mark.parametrize("game_id,n", CASES)
def test_history_records_every_action(game_id, n):
    """``history()`` (OpenSpiel's verb) lists the applied actions in order, with their seats
    in ``full_history()``; a clone's history is its own; the JSON keeps it."""
    game = krazy_core.make(game_id, num_players=n)
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    played = []
    for _ in range(60):
        if state.is_terminal():
            break
        a = rng.choice(state.legal_actions())
        played.append((state.current_player(), a))
        state.apply_action(a)
        if len(played) == 30:
            fork = state.clone()
    assert state.full_history() == played
    assert state.history() == [a for _, a in played]
    assert game.new_initial_state(seed=5).history() == []
    if len(played) > 30:
        assert fork.full_history() == played[:30]
        legal = fork.legal_actions()
        other = legal[-1] if legal[-1] != played[30][1] else legal[0]
        fork.apply_action(other)                     # the forks diverge: copy-on-write
        assert fork.full_history()[30][1] == other
        assert state.full_history() == played
    back = game.state_from_json(state.to_json())
    assert back.full_history() == played
    doc = json.loads(state.to_json())
    del doc["history"]                               # JSON written before it was saved
    assert game.state_from_json(json.dumps(doc)).history() == []


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_history_raises_invalid_state(game_id):
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=6)
    random_playout(state, random.Random(6), max_steps=10)
    doc = json.loads(state.to_json())
    assert doc["history"], "the playout applied actions"
    n_actions = game.num_distinct_actions
    for bad in ([game.num_players, 0], [-1, 0], [0, -1], [0, n_actions], [0, 1, 2], [0],
                ["0", 1], [0, 1.0], [True, 0], None, 7, {"player": 0}):
        d = json.loads(json.dumps(doc))
        d["history"][0] = bad
        with pytest.raises(InvalidStateError, match="history"):
            game.state_from_json(json.dumps(d))
    for bad in ({"x": 1}, "abc", 5, None):
        d = json.loads(json.dumps(doc))
        d["history"] = bad
        with pytest.raises(InvalidStateError, match="history"):
            game.state_from_json(json.dumps(d))


@pytest.mark.parametrize("game_id", GAMES)
def test_event_fields_that_do_not_read_back_raise_invalid_state(game_id):
    """A card field no card has (-1, 0, 255, 2**31-1) in any event either loads into a log
    that reads back, or raises InvalidStateError at load: never a plain error later."""
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=0)
    random_playout(state, random.Random(0), max_steps=15)
    doc = json.loads(state.to_json())
    for i in range(len(doc["events"])):
        for field in (2, 3):
            for bad in (-1, 0, 255, 2 ** 31 - 1):
                d = json.loads(json.dumps(doc))
                d["events"][i][field] = bad
                try:
                    s = game.state_from_json(json.dumps(d))
                except InvalidStateError:
                    continue
                s.events_for(None), s.events_for("all"), s.events_for(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_viewer_raises_value_error(game_id):
    """A seat out of range is an error in every per-player view: observation,
    observation_tensor and events_for (which used to read seat 99 as a spectator)."""
    game = krazy_core.make(game_id)
    n = game.num_players
    state = game.new_initial_state(seed=3)
    random_playout(state, random.Random(3), max_steps=6)
    for bad in (-1, n, 99, "0"):
        with pytest.raises((ValueError, TypeError)):
            state.observation(bad)
        with pytest.raises((ValueError, TypeError)):
            state.observation_tensor(bad)
    for bad in (-1, n, 99, True, "0", "ALL", 1.0):
        with pytest.raises(ValueError, match="seat 0..%d" % (n - 1)):
            state.events_for(bad)
    assert state.events_for(np.int64(n - 1)) == state.events_for(n - 1)
    own = state.events_for(0)
    assert len(own) == len(state.events) == len(state.events_for("all"))
