"""One contract per verb, held by every game (issue 12 item 2): ``string_to_action`` returns a
legal action or raises ``IllegalActionError`` (a move not legal now, saying why, ``.action``)
or ``UnclearActionError`` (none or several fit, ``.matches``); ``explain_illegal`` is public."""
import random

import pytest

import krazy_core
from krazy_core.errors import IllegalActionError, UnclearActionError
from helpers import GAMES, state_after_random_steps


def _midgame(gid, seed, steps):
    return state_after_random_steps(gid, seed, steps)


@pytest.mark.parametrize("gid", GAMES)
def test_every_action_name_reads_back_to_a_legal_id_or_a_reasoned_refusal(gid):
    """Every action's own name, at seeded mid-game states: a legal one reads back to its id;
    an illegal one raises IllegalActionError naming it (``.action``) and saying why, the same
    sentence as ``explain_illegal``, and the state is unchanged."""
    n = krazy_core.make(gid).num_distinct_actions
    checked = refused = 0
    for seed, steps in ((1, 0), (2, 9), (3, 31)):
        s = _midgame(gid, seed, steps)
        before = s.to_json()
        legal = set(s.legal_actions())
        for a in range(0, n, max(1, n // 150)):
            text = s.action_to_string(a)
            try:
                got = s.string_to_action(text)
            except UnclearActionError as e:
                assert e.matches and all(m in legal for m in e.matches) and len(e.matches) > 1
                continue
            except IllegalActionError as e:
                assert e.action is not None and e.action not in legal
                assert s.action_to_string(e.action) == text
                why = s.explain_illegal(e.action)
                assert why and str(e) == f"{text} is not allowed now: {why}"
                refused += 1
                continue
            assert got in legal and s.action_to_string(got) == text
            assert s.explain_illegal(got) is None
            checked += 1
        for a in legal:
            assert s.string_to_action(s.action_to_string(a)) == a
            checked += 1
        assert s.to_json() == before
    assert checked > 0 and refused > 0


@pytest.mark.parametrize("gid", GAMES)
def test_text_naming_nothing_is_unclear_with_no_matches(gid):
    s = krazy_core.make(gid).new_initial_state(seed=4)
    with pytest.raises(UnclearActionError) as e:
        s.string_to_action("frobnicate the widget")
    assert e.value.matches == () and "no move is called 'frobnicate the widget'" in str(e.value)
    with pytest.raises(UnclearActionError):
        s.string_to_action(17)          # not a str
    assert s.explain_illegal(10**9).startswith("action 1000000000 is out of range")
    assert s.explain_illegal(True).endswith("is not an action (an int or an action's name)")


def test_KK_19_a_card_not_held_is_refused_not_returned():
    """Krazy Kings once returned the id of a card not held ("play 3♠"); now it is refused,
    saying who does not hold it (KK-19: a card alone still announces when that is legal)."""
    s = krazy_core.make("krazy-kings").new_initial_state(seed=42)
    p = s.current_player()
    held = set(s.hand(p))
    missing = next(c for c in (0x03, 0x13, 0x23, 0x33, 0x04, 0x14) if c not in held)
    from krazy_core.cards import format_card
    with pytest.raises(IllegalActionError) as e:
        s.string_to_action(format_card(missing))
    assert not isinstance(e.value, UnclearActionError)
    assert f"does not hold {format_card(missing)}" in str(e.value)
    assert e.value.action not in s.legal_actions()


def test_KR_8_draw_on_a_finished_game_is_refused():
    """Kings Rummy returned the draw id on a finished game; now: IllegalActionError, over."""
    s = _midgame("kings-rummy", 5, 100_000)
    assert s.is_terminal()
    with pytest.raises(IllegalActionError) as e:
        s.string_to_action("draw")
    assert str(e.value) == "draw is not allowed now: the game is over" and e.value.action == 0
    assert s.explain_illegal(0) == "the game is over"


def test_CR_11_lay_off_without_its_end_when_both_ends_fit_is_unclear():
    """CR-11: a Joker fits a run at both ends; "lay off 🃏 on meld 4" names no end, so it is
    UnclearActionError listing both (the CLI once played the low end); with the end it plays."""
    g = krazy_core.make("contract-rummy", num_players=2)
    s = g.new_initial_state(seed=9)
    rng = random.Random(9)
    for _ in range(838):
        s.apply_action(rng.choice(s.legal_actions()))
    low, high = s.string_to_action("lay off JK on meld 4 low"), s.string_to_action("lay off 🃏 on meld 4 high")
    assert {low, high} <= set(s.legal_actions()) and low != high
    with pytest.raises(UnclearActionError) as e:
        s.string_to_action("lay off jk on meld 4")
    assert set(e.value.matches) == {low, high}
    assert "'lay off 🃏 on meld 4 low'" in str(e.value) and "'lay off 🃏 on meld 4 high'" in str(e.value)
    from krazy_core.cli.moves import _resolve_name
    legal = s.legal_actions()
    # the terminal numbers melds from 1: the engine's meld 4 is the table's meld 5, and the
    # table's meld 4 (the engine's 3) takes the Joker one way only
    a, err = _resolve_name(s, "lay off JK on meld 5", legal, [s.action_to_string(x) for x in legal])
    assert a is None and "fits 2 moves" in err
    assert "'lay off 🃏 on meld 5 low', 'lay off 🃏 on meld 5 high'" in err
    a, err = _resolve_name(s, "lay off JK on meld 4", legal, [s.action_to_string(x) for x in legal])
    assert err is None and s.action_to_string(a) == "lay off 🃏 on meld 3"


# keys every game's observation(player) has, with the same meaning (docs/guide/frontend.md, "Moves, refusals, events, observations")
SHARED_KEYS = {"game", "player", "num_players", "current_player", "phase", "terminal", "dealer",
               "hand", "hand_text", "hand_sizes"}
# and those of the games with a stock and a discard pile (all but KrassKariert)
PILE_KEYS = {"top_card", "top_card_text", "discard_pile", "stock_size", "turn", "max_turns"}


@pytest.mark.parametrize("gid", GAMES)
def test_shared_concepts_share_observation_keys(gid):
    s = _midgame(gid, 6, 20)
    p = s.current_player()
    obs = s.observation(p)
    assert SHARED_KEYS <= set(obs)
    assert obs["game"] == gid and obs["player"] == p and obs["current_player"] == p
    assert obs["num_players"] == s.game.num_players == len(obs["hand_sizes"])
    assert obs["hand_sizes"][p] == len(obs["hand"]) == len(obs["hand_text"])
    assert obs["terminal"] is False and obs["legal_actions"] == s.legal_actions()
    if gid != "krass-kariert":
        assert PILE_KEYS <= set(obs)
        pile = obs["discard_pile"]
        assert obs["top_card"] == (pile[-1] if pile else None)
    if gid in ("kings-rummy", "contract-rummy"):
        assert obs["totals"] == s.totals() and isinstance(obs["round"], int)
        assert s.stats()["turn_limit_rounds"] >= 0


@pytest.mark.parametrize("gid", GAMES)
def test_observation_tensor_layout_is_named_segments_end_to_end(gid):
    game = krazy_core.make(gid)
    layout = game.observation_tensor_layout
    assert layout and [seg.offset for seg in layout] == [0] + [s.offset + s.size for s in layout[:-1]]
    assert (layout[-1].offset + layout[-1].size,) == game.observation_tensor_shape
    assert all(seg.size > 0 for seg in layout) and len({s.name for s in layout}) == len(layout)
    names = {s.name for s in layout}
    assert {"hand", "seats"} <= names
    # the hand segment holds the player's hand and nothing else does (a fresh deal, seat 0)
    st = game.new_initial_state(seed=8)
    t = st.observation_tensor(0)
    hand = next(s for s in layout if s.name == "hand")
    block = t[hand.offset:hand.offset + hand.size]
    assert block.any()
    other = krazy_core.make(gid).new_initial_state(seed=9).observation_tensor(0)
    assert (block != other[hand.offset:hand.offset + hand.size]).any()
    if "turn" in names:                # the same turn as the observation's, / max_turns
        turn = next(s for s in layout if s.name == "turn")
        obs = st.observation(0)
        assert turn.size == 1 and t[turn.offset] == pytest.approx(obs["turn"] / obs["max_turns"])


@pytest.mark.parametrize("gid", GAMES)
def test_one_simulate_random_signature(gid):
    import importlib
    from krazy_core._state import simulate_random
    from krazy_core.game import REGISTRY
    game = krazy_core.make(gid)
    fns = [simulate_random]
    mod = importlib.import_module(REGISTRY[gid])
    if hasattr(mod, "simulate_random"):
        fns.append(mod.simulate_random)
    for fn in fns:
        for policy in ("random", "heuristic"):
            r = fn(game, 3, 11, policy)
            assert set(r) == {"games", "decisions", "seconds", "decisions_per_second"}
            assert r["games"] == 3 and r["decisions"] > 0
            assert fn(game, 3, seed=11, policy=policy)["decisions"] == r["decisions"]
        with pytest.raises(krazy_core.ConfigError):
            fn(game, 3, 11, "smart")


@pytest.mark.parametrize("gid", GAMES)
def test_events_read_incrementally_equal_the_whole_log(gid):
    """events_for(player, since=n) / events_since(n, player) give exactly the tail of the whole
    log, for every viewer; a cursor kept across moves reads each event once."""
    s = krazy_core.make(gid).new_initial_state(seed=12)
    rng = random.Random(12)
    got = {v: [] for v in (None, 0, "all")}
    cursor = 0
    for _ in range(60):
        if s.is_terminal():
            break
        for v in got:
            got[v] += s.events_for(v, since=cursor)
        cursor = s.num_events
        s.apply_action(rng.choice(s.legal_actions()))
    for v in got:
        got[v] += s.events_since(cursor, v)
        assert got[v] == s.events_for(v) and len(got[v]) == s.num_events
    assert s.events_for(0, since=3) == s.events_for(0)[3:]
    assert s.raw_events(5) == s.raw_events()[5:]
    assert s.events_since(s.num_events + 10) == []
    with pytest.raises(ValueError):
        s.events_for(0, since=-1)
    with pytest.raises(ValueError):
        s.events_for(None, since="3")


@pytest.mark.parametrize("gid", GAMES)
def test_illegal_action_error_carries_the_action_and_the_state(gid):
    """IllegalActionError.action and .state_json reproduce the refusal (issue 12 item 6): the
    state read back refuses the same action with the same message; the message stays short
    (no JSON in it); both attributes survive pickling."""
    import pickle
    s = _midgame(gid, 13, 17)
    legal = set(s.legal_actions())
    bad = next(a for a in range(s.game.num_distinct_actions) if a not in legal)
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(bad)
    err = e.value
    assert err.action == bad and err.state_json == s.to_json()
    assert len(str(err)) < 1500 and '"format"' not in str(err)
    again = s.game.state_from_json(err.state_json)
    with pytest.raises(IllegalActionError) as e2:
        again.apply_action(err.action)
    assert str(e2.value) == str(err)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err) and back.action == bad and back.state_json == err.state_json
    assert str(back) == str(err)
    with pytest.raises(UnclearActionError) as e3:
        s.string_to_action("no such move at all")
    assert e3.value.state_json == s.to_json() and e3.value.matches == ()
    s.apply_action(min(legal))              # the error's state is a copy: later moves leave it
    assert err.state_json != s.to_json() and s.game.state_from_json(err.state_json) == again
