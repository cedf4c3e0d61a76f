"""The game's words in the engine (games/<game>/words.py through State): described moves and
back, reasons, prompts, narration and the per-game facts a table shows, for every game."""
import random

import pytest

import krazy_core
from krazy_core import protocol
from krazy_core.cli.narrate import _log_lines
from krazy_core.errors import IllegalActionError, UnclearActionError
from krazy_core.games import melds
from krazy_core.ui import load_ui

GAMES = krazy_core.available_games()
IDENT = ("kind", "cards", "meld", "end", "suit", "positions", "slot", "position", "combination",
         "x_values", "direction", "announce")
PLAYERS = {"krazy-kings": (4, 2, 5), "kings-rummy": (4, 2, 7), "contract-rummy": (4, 2, 6),
           "krass-kariert": (4, 3, 5)}


def _positions(gid, n_states, seed=0, **options):
    """Random positions of ``gid`` (whole games from many seeds and table sizes), up to
    ``n_states`` of them, each yielded before its random move."""
    rng = random.Random(seed)
    made = 0
    g = 0
    while made < n_states:
        n = PLAYERS[gid][g % 3]
        game = krazy_core.make(gid, num_players=n, **options)
        s = game.new_initial_state(seed=seed * 1000 + g)
        while not s.is_terminal() and made < n_states:
            yield s
            made += 1
            s.apply_action(rng.choice(s.legal_actions()))
        g += 1


@pytest.mark.parametrize("gid", GAMES)
def test_every_legal_action_of_2000_random_states_round_trips_through_its_description(gid):
    states = actions = 0
    kinds = set()
    for s in _positions(gid, 2000, seed=11):
        states += 1
        for d in protocol.describe_actions(s):
            a = d["id"]
            assert s.describe_action(a) == d                       # one description per id
            assert d["label"] == s.action_to_string(a)
            assert s.action_from(d) == a                            # the whole dict
            assert s.action_from({k: d[k] for k in IDENT if k in d}) == a   # its data alone
            assert s.action_from({"id": a}) == a
            kinds.add(d["kind"])
            actions += 1
    assert states == 2000 and actions > 4000
    assert kinds <= set(krazy_core.game.get_spec(gid).words.KINDS)
    assert len(kinds) >= 2


def test_kk8_a_roll_by_choice_is_described_and_read_back():
    game = krazy_core.make("krazy-kings", num_players=2, may_roll_when_able=True)
    for s in _positions("krazy-kings", 3000, seed=3, may_roll_when_able=True):
        if 106 in s.legal_actions():
            d = s.describe_action(106)
            assert d["kind"] == "roll" and d["label"] == "roll"
            assert s.action_from({"kind": "roll"}) == 106
            assert game.game_id == s.game.game_id
            return
    raise AssertionError("no position with a roll by choice")


def test_kk19_a_play_named_without_announce_fits_two_moves_when_the_call_is_legal():
    for s in _positions("krazy-kings", 20000, seed=4):
        legal = s.legal_actions()
        announced = [a for a in legal if 53 <= a < 106]
        if announced and announced[0] - 53 in legal:
            card = s.describe_action(announced[0])["cards"]
            with pytest.raises(UnclearActionError, match="fits 2 moves") as e:
                s.action_from({"kind": "play", "cards": card})
            assert sorted(e.value.matches) == sorted([announced[0], announced[0] - 53])
            assert s.action_from({"kind": "play", "cards": card, "announce": True}) == announced[0]
            return
    raise AssertionError("no position with a last-card call")


@pytest.mark.parametrize("gid", GAMES)
def test_a_described_move_that_is_not_legal_is_refused_with_its_reason_and_the_state_kept(gid):
    checked = 0
    for s in _positions(gid, 300, seed=5):
        before = s.to_json()
        legal = set(s.legal_actions())
        for a in range(s.game.num_distinct_actions):
            if a in legal:
                continue
            d = s.describe_action(a)
            with pytest.raises(IllegalActionError) as e:
                s.action_from({k: d[k] for k in IDENT if k in d})
            if not isinstance(e.value, UnclearActionError):
                assert e.value.action is not None and e.value.action not in legal
                assert "is not allowed now: " in str(e.value)
                checked += 1
            break
        assert s.to_json() == before
    assert checked > 100


@pytest.mark.parametrize("bad", [None, 3, "play", [], {"kind": "fly"}, {"id": True}, {"id": -1},
                                 {"id": 10 ** 9}, {"kind": "play", "cards": "xx"}, {"kind": {}}])
@pytest.mark.parametrize("gid", GAMES)
def test_hostile_moves_raise_illegal_action_errors_never_anything_else(gid, bad):
    s = krazy_core.make(gid).new_initial_state(seed=1)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.action_from(bad)
    assert s.to_json() == before
    assert isinstance(s.explain(bad) if not isinstance(bad, (list, type(None))) else "x", str)


def test_ka5_described_texts_count_hand_positions_from_1_and_data_from_0():
    seen = set()
    for s in _positions("krass-kariert", 400, seed=6):
        hand = s.observation(s.current_player())["hand"]
        for d in protocol.describe_actions(s):
            if d["kind"] == "play":
                lo, hi = d["positions"][0], d["positions"][-1]
                assert d["cards"] == hand[lo:hi + 1]
                span = f"{lo + 1}" if lo == hi else f"{lo + 1}-{hi + 1}"
                assert d["text"].startswith(f"play {span} {d['combination']['type']} ")
                seen.add("play")
            elif d["kind"] == "reserve":
                assert d["text"].endswith(f"into position {d['position'] + 1}")
                seen.add("reserve")
            elif d["kind"] == "insert":
                assert d["text"].endswith(f"at position {d['position'] + 1}")
                seen.add("insert")
    assert seen == {"play", "reserve", "insert"}


def test_cr11_described_lay_offs_number_melds_from_1_in_text_and_from_0_in_data():
    for s in _positions("contract-rummy", 40000, seed=7):
        for d in protocol.describe_actions(s):
            if d["kind"] == "lay_off":
                assert f"on meld {d['meld'] + 1}" in d["text"] and f"on meld {d['meld']}" in d["label"]
                return
    raise AssertionError("no lay off found")


# ------------------------------------------------------------------ reasons
def test_kk6_explain_card_says_what_the_roll_allows():
    for s in _positions("krazy-kings", 5000, seed=8):
        p = s.current_player()
        obs = s.observation(p)
        if obs["phase"] == "round_one" and obs["roll"]:
            d1, d2 = obs["roll"]
            for c in obs["hand"]:
                v = c & 15
                if c >> 4 < 4 and v not in (d1, d2, d1 + d2, 13):
                    why = s.explain_card(c)
                    assert why.startswith(f"{krazy_core.cards.format_card(c)}: you rolled {d1}+{d2}; only ")
                    assert why.endswith("(KK-6)")
                    assert s.explain_card(c, seat=p) == why
                    return
    raise AssertionError("no round-one card without a match")


@pytest.mark.parametrize("gid", GAMES)
def test_explain_gives_a_reason_for_every_refused_id_and_none_for_a_legal_one(gid):
    n = 0
    for s in _positions(gid, 200, seed=9):
        legal = s.legal_actions()
        assert s.explain(legal[0]) is None
        assert s.explain(s.action_to_string(legal[0])) is None
        bad = next(a for a in range(s.game.num_distinct_actions) if a not in legal)
        why = s.explain(bad)
        assert why and "player 0" not in why and "seat 0" not in why      # seats from 1
        n += 1
    assert n == 200
    assert "out of range" in s.explain(10 ** 6)


def test_kr8_explain_names_the_rule_and_says_you_for_the_mover():
    s = krazy_core.make("kings-rummy").new_initial_state(seed=1)
    assert s.observation(s.current_player())["phase"] == "draw"
    hand = s.observation(s.current_player())["hand"]
    assert s.explain(2 + krazy_core.games.kings_rummy.card_kind(hand[0])) == \
        "first draw a card, from the stock or the discard pile (KR-8)"
    s.apply_action(0)
    missing = next(k for k in range(56) if krazy_core.games.kings_rummy.words.kind_code(k) not in
                   s.observation(s.current_player())["hand"])
    assert s.explain(2 + missing).startswith("you do not hold ")


# ------------------------------------------------------------------ prompts
RULE_IN_PROMPT = {"krazy-kings": "(KK-", "kings-rummy": "(KR-", "contract-rummy": "(CR-",
                  "krass-kariert": "(KA-"}


@pytest.mark.parametrize("gid", GAMES)
def test_the_prompt_names_the_rule_for_the_mover_and_the_mover_for_everyone_else(gid):
    for s in _positions(gid, 300, seed=10):
        p = s.current_player()
        assert RULE_IN_PROMPT[gid] in s.prompt(p)
        assert s.prompt() == s.prompt(p)
        other = (p + 1) % s.game.num_players
        names = [f"N{i}" for i in range(s.game.num_players)]
        assert s.prompt(other, names=names) == f"N{p} is to play."
    with pytest.raises(ValueError):
        s.prompt(99)


def test_ka7_the_prompt_says_what_is_to_beat_and_who_played_it():
    for s in _positions("krass-kariert", 500, seed=12):
        p = s.current_player()
        best = s.observation(p)["best"]
        if best is not None and not best["stop"] and s.observation(p)["phase"] == "play":
            c = best["combination"]
            assert s.prompt(p).startswith(f"To beat: {c['type']} {c['value']} (seat {best['player'] + 1}).")
            f = s.facts(p)
            assert f["to_beat"]["player"] == best["player"]
            return
    raise AssertionError("no trick with a combination to beat")


def test_cr8_a_buy_offer_out_of_turn_is_not_headed_your_turn():
    for s in _positions("contract-rummy", 5000, seed=13):
        p = s.current_player()
        obs = s.observation(p)
        if obs["phase"] == "buy_or_pass":
            assert s.prompt(p).startswith(f"Not your turn (seat {obs['turn_player'] + 1} declined ")
            assert "(CR-8)" in s.prompt(p)
            return
    raise AssertionError("no buy offer found")


# ------------------------------------------------------------------ narration
@pytest.mark.parametrize("gid", GAMES)
def test_narration_is_the_terminals_play_by_play(gid):
    s = next(x for i, x in enumerate(_positions(gid, 400, seed=14)) if i == 399)
    names = [f"seat {p + 1}" for p in range(s.game.num_players)]
    ui = load_ui(gid)
    ui.state = s
    assert s.narrate(None, names=names) == _log_lines(ui, s.events_for(None), names)
    assert len(s.narrate(None, names=names)) > 10
    for e in s.events_for(0):
        assert s.narrate_event(e, names) == (ui.describe_event(e, names, state=s) if ui.describe_with_state
                                             else ui.describe_event(e, names))


def test_kk16_the_roll_off_is_narrated_with_every_die():
    for s in _positions("krazy-kings", 20000, seed=15):
        evs = s.events_for(None)
        dice = [e for e in evs if e["event"] == "rolloff_die"]
        if dice:
            e = dice[0]
            assert s.narrate_event(e) == f"roll-off: seat {e['player'] + 1} rolls " \
                                         f"{krazy_core.games.krazy_kings.words.DIE[e['die']]} ({e['die']})"
            return
    raise AssertionError("no roll-off")


@pytest.mark.parametrize("gid", GAMES)
def test_every_event_of_a_seat_view_carries_its_sentence(gid):
    s = next(x for i, x in enumerate(_positions(gid, 120, seed=16)) if i == 119)
    p = s.current_player()
    v = protocol.seat_view(s, p)
    assert len(v["events"]) == s.num_events
    texts = [e["text"] for e in v["events"]]
    assert all(t is None or isinstance(t, str) for t in texts)
    assert sum(t is not None for t in texts) > 5
    assert v["prompt"] == s.prompt(p)
    spectator = protocol.seat_view(s, None)
    assert spectator["facts"] == {} and spectator["actions"] == []
    # a spectator reads whose turn it is, never the mover's own words (its hand's options)
    other = (p + 1) % s.game.num_players
    assert spectator["prompt"] == s.prompt(other) and spectator["prompt"] != s.prompt(p)
    assert "is to play" in spectator["prompt"]
    # the rules the prompt cites, as data: each a rule of the game, in the prompt's order
    assert v["prompt_rules"] and all(r in v["prompt"] for r in v["prompt_rules"])
    assert [v["prompt"].index(r) for r in v["prompt_rules"]] == sorted(v["prompt"].index(r) for r in v["prompt_rules"])
    assert all(s.game.spec.rule(r) for r in v["prompt_rules"])
    validate = protocol.validator("event.json", gid)
    for e in v["events"]:
        validate.validate(e)


# ------------------------------------------------------------------ facts
def test_kr12_facts_give_the_best_arrangement_and_the_go_out_discards():
    n = laid_seen = 0
    for s in _positions("kings-rummy", 1500, seed=17):
        p = s.current_player()
        obs = s.observation(p)
        f = s.facts(p)
        groups, left, points = melds.best_arrangement(obs["hand"], melds.kings_rules(obs["wild_rank"]), as_codes=True)
        assert f["arrangement"]["points"] == points and f["arrangement"]["deadwood"] == list(left)
        assert f["last_turn"] == (obs["went_out"] is not None)
        outs = f["arrangement"]["go_out"]
        assert sorted(outs) == sorted({krazy_core.games.kings_rummy.words.kind_code(a - 58)
                                       for a in s.legal_actions() if a >= 58})
        if outs:
            assert "to go out (KR-10)" in f["arrangement_text"] and "to go out (KR-10)" in s.prompt(p)
            n += 1
        for q, cards in enumerate(obs["laid_down"]):        # laid-down hands as melds (KR-12)
            if cards is not None:
                laid = f["laid_down"][q]
                assert sorted(sum(laid["melds"], []) + laid["deadwood"]) == sorted(cards)
                assert laid["points"] == obs["round_points"][q] or obs["round_points"][q] is None
                laid_seen += 1
    assert n > 0 and laid_seen > 0


def test_cr2_facts_give_melds_with_each_wild_and_what_it_stands_for():
    for s in _positions("contract-rummy", 60000, seed=18):
        for m in s.facts(max(s.current_player(), 0))["melds"]:
            if m["kind"] == "run" and any(m["wilds"]):
                i = m["wilds"].index(True)
                sf = m["stands_for"][i]
                r = m["lo"] + i
                r = r - 13 if r > 14 else r
                assert sf["rank"] == (1 if r == 14 else r) and sf["suit"] == m["suit"]
                assert m["number"] == m["id"] + 1 and "✱" in m["words"]
                assert all(x is None for x, w in zip(m["stands_for"], m["wilds"]) if not w)
                return
    raise AssertionError("no run with a wild")


def test_ka10_facts_give_the_last_tricks_winner():
    for s in _positions("krass-kariert", 300, seed=19):
        ends = [e for e in s.events_for(None) if e["event"] == "trick_end"]
        if ends:
            f = s.facts(s.current_player())
            assert f["last_trick"]["winner"] == ends[-1]["player"]
            assert f["last_trick_text"].startswith(f"seat {ends[-1]['player'] + 1}")
            return
    raise AssertionError("no trick ended")


def test_cr10_the_prompt_offers_going_down_only_when_the_hand_can():
    n = {True: 0, False: 0}
    for s in _positions("contract-rummy", 3000, seed=21):
        p = s.current_player()
        if s.observation(p)["phase"] == "play" and not s.observation(p)["down"][p]:
            can = 57 in s.legal_actions()                     # GO_DOWN
            assert s.prompt(p).startswith("Go down with" if can else "Discard a card (CR-9); to go down you need")
            n[can] += 1
    assert n[True] and n[False]


def test_kr11_the_last_turn_names_who_went_out():
    for s in _positions("kings-rummy", 20000, seed=22):
        p = s.current_player()
        f = s.facts(p)
        if f["last_turn"]:
            w = s.observation(p)["went_out"]
            assert f["last_turn_text"] == f"seat {w + 1} went out: this is your last turn (KR-11)"
            return
    raise AssertionError("no last turn found")


@pytest.mark.parametrize("gid", GAMES)
def test_card_reasons_say_why_each_held_card_no_move_uses_cannot_be_played(gid):
    """``seat_view``'s ``card_reasons``: for the seat to move, every held card that no legal
    move uses, with ``state.explain_card``'s words (a rule number in them); nothing for a
    card a move uses, for another seat or for a spectator."""
    seen = 0
    for s in _positions(gid, 300, seed=21):
        p = s.current_player()
        v = protocol.seat_view(s, p)
        used = {c for a in v["actions"] for c in a.get("cards", ())}
        held = set(v["observation"]["hand"])
        assert set(map(int, v["card_reasons"])) == {c for c in held - used if s.explain_card(c)}
        for k, why in v["card_reasons"].items():
            assert why == s.explain_card(int(k)) and __import__("re").search(r"\([A-Z]{2}-\d+", why), why
            seen += 1
        other = (p + 1) % s.game.num_players
        assert protocol.seat_view(s, other)["card_reasons"] == {} and protocol.seat_view(s, None)["card_reasons"] == {}
    assert seen > 50
