"""The protocol's JSON Schemas (krazy_core/protocol/schemas, draft 2020-12) against every payload of
1,000 random games per game, and the structured action descriptions (krazy_core.protocol).

Cost is bounded: the games run at the Python API's speed (~2M decisions/s); every game's
whole event log (as every seat, the public and 'all' see it) and its final full state are
validated; observations of every seat and the described actions are validated at the deal,
at the end and at a few random positions of each game (every position of the first games);
equal field values are validated once (tests/protocol_helpers.py)."""
import json
import os
import random

import jsonschema
import pytest

import krazy_core
from krazy_core import protocol
from krazy_core.cards import format_card
from krazy_core.protocol.schemas import _generate
from protocol_helpers import Checker, Invalid, compile_schema
from helpers import slow_cases  # noqa: E402

GAMES = krazy_core.available_games()
N_GAMES = int(os.environ.get("KRAZY_SCHEMA_GAMES", 1000))


def test_shipped_schemas_are_what_the_generator_builds():
    built = _generate.build()
    assert sorted(built) == sorted(protocol.SCHEMA_FILES)
    for name, body in built.items():
        with open(f"{protocol.SCHEMA_DIR}/{name}", encoding="utf-8") as f:
            assert f.read() == _generate.dumps(body), f"{name}: run python -m krazy_core.protocol.schemas._generate"
        jsonschema.Draft202012Validator.check_schema(body)
        assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_names_are_checked():
    with pytest.raises(KeyError, match="no schema"):
        protocol.schema("../etc/passwd")


def _options(gid, i):
    n_lo, n_hi = krazy_core.game.get_spec(gid).min_players, krazy_core.game.get_spec(gid).max_players
    opts = {"num_players": n_lo + i % (n_hi - n_lo + 1)}
    # most games of the many-round games are one round from every starting round (whole games
    # under those options); every 100th is the full game
    if gid == "contract-rummy" and i % 100:
        opts.update(rounds=1, first_round=1 + i % 7)
    if gid == "kings-rummy" and i % 100:
        opts.update(rounds=1, first_round=1 + i % 11)
    return opts


@pytest.mark.slow
@pytest.mark.parametrize("gid", GAMES)
def test_every_payload_of_1000_random_games_matches_the_schemas(gid):
    state_full = protocol.validator("state.json")
    state_c = Checker("state.json", None)
    state_c.check = compile_schema(protocol.schema("state.json")["$defs"][gid])
    top = {k: v for k, v in protocol.schema("state.json").items() if k not in ("allOf", "$defs")}
    top_c = compile_schema(top)

    class state_v:   # the envelope and this game's state compiled; jsonschema on every 50th
        @staticmethod
        def validate(d):
            top_c(d)
            state_c.check(d)
            if i % 50 == 3:
                state_full.validate(d)
    obs_v = Checker("observation.json", gid)
    act_v = Checker("action.json")
    ev_v = Checker("event.json", gid, memo=True)
    kinds = set()
    n_states = 0
    for i in range(N_GAMES):
        game = krazy_core.make(gid, **_options(gid, i))
        s = game.new_initial_state(seed=i)
        rng = random.Random(i)
        every = i < 2 and gid in ("krazy-kings", "krass-kariert")
        step = 0
        while True:
            if every or step == 0 or s.is_terminal() or rng.random() < 0.005:
                for p in range(game.num_players):
                    obs_v.validate(s.observation(p))
                    if i % 100 == 1:
                        obs_v.full.validate(s.observation(p))   # and jsonschema itself
                for d in protocol.describe_actions(s):
                    act_v.validate(d)
                    kinds.add(d["kind"])
                if rng.random() < 0.1:
                    state_v.validate(json.loads(s.to_json()))
                    n_states += 1
            if s.is_terminal():
                break
            s.apply_action(s.random_action(seed=rng.getrandbits(32)))
            step += 1
        state_v.validate(json.loads(s.to_json()))
        n_states += 1
        for viewer in list(range(game.num_players)) + [None] + (["all"] if i % 10 == 0 else []):
            for k, e in enumerate(s.events_for(viewer)):
                ev_v.validate(e)
                if i % 100 == 1 and k < 300:
                    ev_v.full.validate(e)
    assert obs_v.count > N_GAMES * 2 and act_v.count > N_GAMES and ev_v.count > N_GAMES * 50
    # every kind of move the game has was seen and described
    # the sampled positions show most kinds of move (rare ones have their own tests below)
    assert kinds <= set(_generate.action_kinds()[gid]) and len(kinds) >= len(_generate.action_kinds()[gid]) // 2, kinds


@pytest.mark.parametrize("gid", GAMES)
def test_compiled_checks_agree_with_plain_jsonschema(gid):
    """The compiled checks reject what jsonschema rejects (mutated payloads)."""
    game = krazy_core.make(gid)
    s = game.new_initial_state(seed=3)
    for _ in range(30):
        s.apply_action(s.random_action(seed=len(s.history())))
    obs = s.observation(s.current_player())
    fv = Checker("observation.json", gid)
    fv.validate(obs)
    fv.full.validate(obs)
    bad = [dict(obs, hand="x"), dict(obs, secret_stock=[1, 2]), {k: v for k, v in obs.items() if k != "hand"},
           dict(obs, current_player="me"), dict(obs, game="poker")]
    for b in bad:
        with pytest.raises(jsonschema.ValidationError):
            fv.full.validate(b)
        with pytest.raises(jsonschema.ValidationError):
            fv.validate(b)


def test_the_state_schema_rejects_a_broken_state():
    s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
    d = json.loads(s.to_json())
    v = protocol.validator("state.json")
    v.validate(d)
    d["state"]["rng"] = [1, 2, 3]
    with pytest.raises(jsonschema.ValidationError):
        v.validate(d)


# ---------------------------------------------------------------- described actions
def _find(gid, pred, seeds=200, **opts):
    for seed in range(seeds):
        s = krazy_core.make(gid, **opts).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            for d in protocol.describe_actions(s):
                if pred(d, s):
                    return d, s
            s.apply_action(s.random_action(seed=rng.getrandbits(32)))
    raise AssertionError("no such action found")


def test_described_actions_are_the_legal_actions_in_order_with_their_labels():
    for gid in GAMES:
        s = krazy_core.make(gid).new_initial_state(seed=5)
        for _ in range(20):
            ds = protocol.describe_actions(s)
            assert [d["id"] for d in ds] == s.legal_actions()
            assert [d["label"] for d in ds] == [s.action_to_string(a) for a in s.legal_actions()]
            other = (s.current_player() + 1) % s.num_players()
            assert protocol.describe_actions(s, player=other) == []
            s.apply_action(ds[0]["id"])


def test_krazy_kings_play_names_its_card_and_the_last_card_call():
    """KK-19: a play of the second-to-last card may announce the last card."""
    d, s = _find("krazy-kings", lambda d, s: d.get("announce"))
    assert d["kind"] == "play" and len(d["cards"]) == 1
    assert d["label"] == f"play {format_card(d['cards'][0])} last card"
    assert d["cards"][0] in s.observation(s.current_player())["hand"]
    d, s = _find("krazy-kings", lambda d, s: d["kind"] == "direction")
    assert d["direction"] == (1 if d["label"] == "clockwise" else -1)


def test_kings_rummy_kinds():
    d, s = _find("kings-rummy", lambda d, s: d["kind"] == "take_discard")
    assert d["cards"] == [s.observation(s.current_player())["top_card"]]
    d, s = _find("kings-rummy", lambda d, s: d["kind"] == "go_out")
    assert d["cards"][0] in s.observation(s.current_player())["hand"]


def test_crazy_rummy_lay_off_names_meld_and_end():
    """CR-12: a lay off on a run names the end it goes on; a lay onto the meld being built
    (CR-10) names that meld."""
    d, s = _find("contract-rummy", lambda d, s: d["kind"] == "lay_off" and "end" in d)
    assert d["end"] in ("low", "high")
    melds = {m["id"]: m for m in s.observation(s.current_player())["melds"]}
    assert melds[d["meld"]]["kind"] == "run"
    d, s = _find("contract-rummy", lambda d, s: d["kind"] == "lay")
    assert d["meld"] == s.observation(s.current_player())["building_meld"]
    d, s = _find("contract-rummy", lambda d, s: d["kind"] == "buy")
    assert d["cards"] == [s.observation(s.current_player())["up_card"]]


def test_krass_kariert_play_names_adjacent_positions_and_their_cards():
    """KA-6: 1-3 adjacent cards of the fixed-order hand."""
    d, s = _find("krass-kariert", lambda d, s: d["kind"] == "play" and len(d["positions"]) == 2)
    hand = s.observation(s.current_player())["hand"]
    lo = d["positions"][0]
    assert d["positions"] == [lo, lo + 1]
    assert d["cards"] == hand[lo:lo + 2]
    import krazy_core.games.krass_kariert as ka
    assert d["combination"]["index"] == d["id"] % ka.NUM_COMBINATIONS
    assert d["combination"]["type"] in ("2-straight", "pair")
    d, s = _find("krass-kariert", lambda d, s: d["kind"] == "reserve")
    obs = s.observation(s.current_player())
    assert d["cards"] == [obs["reserves"][obs["player"]][d["slot"]]]
    d, s = _find("krass-kariert", lambda d, s: d["kind"] == "insert")
    assert d["cards"] == [s.observation(s.current_player())["drawn_card"]]


def test_seat_view_of_a_spectator_has_no_hand_and_no_actions():
    s = krazy_core.make("krazy-kings").new_initial_state(seed=2)
    v = protocol.seat_view(s, None)
    assert v["observation"] is None and v["actions"] == []
    # the events as events_for gives them, each with the sentence the terminal prints for it
    assert [{k: x for k, x in e.items() if k != "text"} for e in v["events"]] == s.events_for(None)
    assert [e["text"] for e in v["events"]] == [s.narrate_event(e) for e in s.events_for(None)]
    v = protocol.seat_view(s, s.current_player(), first_event=3)
    assert [{k: x for k, x in e.items() if k != "text"} for e in v["events"]] == \
        s.events_for(s.current_player())[3:]
    assert [a["id"] for a in v["actions"]] == s.legal_actions()


def _mutations(d):
    """Payloads one change away from ``d``: each field dropped, retyped, set out of range."""
    out = [dict(d, unknown_field=1), "text", None]
    for k, v in d.items():
        out.append({x: y for x, y in d.items() if x != k})
        out.append(dict(d, **{k: {"nested": v}}))
        if type(v) is int:
            out += [dict(d, **{k: -5}), dict(d, **{k: 10 ** 20}), dict(d, **{k: True}), dict(d, **{k: 1.5})]
        if type(v) is list:
            out += [dict(d, **{k: v + ["x"]}), dict(d, **{k: [None] * 9})]
        if type(v) is str:
            out += [dict(d, **{k: ""}), dict(d, **{k: 7})]
    return out


@pytest.mark.parametrize("gid", GAMES)
@slow_cases('contract-rummy', 'krass-kariert', 'krazy-kings')
def test_compiled_checks_and_jsonschema_agree_on_mutated_events_actions_observations(gid):
    ev_c, act_c, obs_c = Checker("event.json", gid), Checker("action.json"), Checker("observation.json", gid)
    s = krazy_core.make(gid).new_initial_state(seed=11)
    rng = random.Random(11)
    samples = []
    for step in range(400):
        if s.is_terminal():
            break
        if step % 40 == 0:
            samples.append((obs_c, s.observation(s.current_player())))
            samples += [(act_c, d) for d in protocol.describe_actions(s)[:3]]
        s.apply_action(s.random_action(seed=rng.getrandbits(32)))
    seen = set()
    for e in s.events_for(0):
        if e["event"] not in seen:
            seen.add(e["event"])
            samples.append((ev_c, e))
    agree = 0
    for checker, good in samples:
        for payload in [good] + _mutations(good):
            want = checker.full.is_valid(payload)
            try:
                checker.check(payload)
                got = True
            except jsonschema.ValidationError:
                got = False
            assert got == want, (payload, want)
            agree += 1
    assert agree > 300
