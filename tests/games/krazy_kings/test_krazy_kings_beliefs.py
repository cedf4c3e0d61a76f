"""Krazy Kings belief weighting (``search(..., beliefs=N)``): the records of each seat's
discards and draws (``belief_records`` in the state JSON), the opponent model's
log likelihood of them in a world (``ops.belief_logweight``, checked against a reference
written here from KK-2/6/7/8/10/11/12/13/15 and HeuristicBot's score), and the search's pool.
Scripted states reuse ``scripted`` from test_krazy_kings.py."""

import json
import math
import random

import pytest

import krazy_core
from helpers import load_test_file
from krazy_core.bots import make_bot
from krazy_core.cards import JOKER, parse_cards
from krazy_core.errors import ConfigError, InvalidStateError
from krazy_core.games.krazy_kings.core import _belief_params
from krazy_core.search.ismcts import _belief_logweight, search

kk = load_test_file("test_krazy_kings")
scripted = kk.scripted

BETA, EPS, PRIOR = _belief_params()          # the model's constants in force
DECISIONS = ("round_one", "round_two", "round_two_rolled", "challenged", "open_roll")


# ---------------------------------------------------------------- a reference model in Python
def value(c):
    """Dice value (KK-2): A=1 .. Q=12; None for Kings and the Joker."""
    if c == JOKER or c & 15 == 13:
        return None
    return c & 15


def match_p(v):
    """The chance that a roll of 2d6 matches dice value v (KK-2: a die or the sum)."""
    return sum(v in (a, b, a + b) for a in range(1, 7) for b in range(1, 7)) / 36


def allowed(card, rec):
    """Whether ``card`` may be discarded in the recorded decision, by the rules (not the hand
    size): a roll's matches (KK-6/8/11/12), in Round One also Kings (KK-10) and the Joker
    (KK-15), in Round Two rank or suit of the top card, Kings and the Joker (KK-7)."""
    top, ph = rec["top_card"], rec["phase"]
    top_king = top is not None and top != JOKER and top & 15 == 13
    king_ok = not (top == JOKER or top_king)
    joker_ok = not top_king
    is_king = card != JOKER and card & 15 == 13
    if ph in ("round_one", "round_two"):
        if is_king:
            return king_ok
        if card == JOKER:
            return joker_ok
    if ph == "round_two":
        return top is not None and top != JOKER and not top_king and (
            card & 15 == top & 15 or card >> 4 == top >> 4)
    d1, d2 = rec["roll"]
    return value(card) in (d1, d2, d1 + d2)


def score(ph, card, hand, rec):
    """HeuristicBot's score (``kk_heuristic``'s docstring): the challenger draws the card's
    value; Kings for a next player close to out; Jokers for any opponent close to out;
    else shed the cards dice rarely match, keeping a suit."""
    if ph == "challenged":
        return value(card)
    if card != JOKER and card & 15 == 13:
        return 30.0 if rec["next_size"] <= 3 else -20.0
    if card == JOKER:
        return 25.0 if rec["min_other"] <= 3 else -30.0
    s = 10.0 * (1.0 - match_p(value(card)))
    if ph in ("round_one", "round_two"):
        s += 0.5 * sum(1 for c in hand if c != card and c != JOKER and c >> 4 == card >> 4)
    return s


def ref_logweight(body, player):
    """The log likelihood of every other seat's recorded discards, the model written out."""
    total = 0.0
    for p, recs in enumerate(body["belief_records"]):
        if p == player or not recs:
            continue
        hand = list(body["hands"][p])
        lh = lu = 0.0
        for rec in reversed(recs):
            if "drew" in rec:
                # which cards came in is drawn at random in C: only a draw of the whole hand
                # is certain here (callers strip the other draws, see strip_draws)
                assert rec["drew"] >= len(hand)
                hand = []
                continue
            hand.append(rec["card"])
            legal = sorted({c for c in hand if allowed(c, rec)})
            if len(hand) == 1:
                legal = [c for c in legal if c & 15 != 13 or c == JOKER]       # KK-13
            if len(legal) <= 1 or rec["card"] not in legal:
                continue
            sc = [score(rec["phase"], c, hand, rec) for c in legal]
            mx = max(sc)
            z = sum(math.exp(BETA * (s - mx)) for s in sc)
            mine = score(rec["phase"], rec["card"], hand, rec)
            lh += math.log((1 - EPS) * math.exp(BETA * (mine - mx)) / z + EPS / len(legal))
            lu -= math.log(len(legal))
        a, b = math.log(PRIOR) + lh, math.log(1 - PRIOR) + lu
        total += max(a, b) + math.log1p(math.exp(-abs(a - b)))
    return total


def strip_draws(state, player):
    """The state with every other seat's records cut to those after its newest draw that
    leaves cards in hand (so ``ref_logweight`` needs no random choice)."""
    d = json.loads(state.to_json())
    for p, recs in enumerate(d["state"]["belief_records"]):
        n = len(d["state"]["hands"][p])       # the hand's size, walking back in time
        for j in range(len(recs) - 1, -1, -1):
            if "card" in recs[j]:
                n += 1
            elif recs[j]["drew"] >= n:
                n = 0
            else:
                d["state"]["belief_records"][p] = recs[j + 1:]
                break
    return state.game.state_from_json(json.dumps(d))


def heuristic_game(players, seed, steps, **options):
    game = krazy_core.make("krazy-kings", num_players=players, **options)
    s = game.new_initial_state(seed=seed)
    bot = make_bot("heuristic", seed=seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(bot.step(s))
    return s


# ---------------------------------------------------------------- the records
def card_of(action):
    return action if action < 53 else action - 53 if action < 106 else None


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_records_are_each_seats_discards_and_draws(players, seed):
    """Replay a game, noting each decision's public context from the observation before a
    discard, and each seat's cards drawn (the draw events; draws in a row add up); the
    state keeps the last 16 per seat."""
    game = krazy_core.make("krazy-kings", num_players=players)
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    bot = make_bot("heuristic", seed=seed)
    expect = [[] for _ in range(players)]
    checked = 0
    for step in range(400):
        if s.is_terminal():
            break
        p = s.current_player()
        obs = s.observation(p)
        a = bot.step(s) if rng.random() < 0.7 else rng.choice(s.legal_actions())
        n_ev = len(s.events)
        code = None
        if card_of(a) is not None:
            i = card_of(a)
            code = JOKER if i == 52 else ((i // 13) << 4) | (i % 13 + 1)
            sizes = obs["hand_sizes"]
            nxt = (p + obs["direction"]) % players
            expect_rec = {"card": code, "phase": obs["phase"], "roll": obs["roll"] or [0, 0],
                          "top_card": obs["top_card"], "hand_size": sizes[p], "next_size": sizes[nxt],
                          "min_other": min(sizes[q] for q in range(players) if q != p)}
        s.apply_action(a)
        if code is not None:
            expect[p] = (expect[p] + [expect_rec])[-16:]
        for ev in s.events[n_ev:]:       # after the discard: a caught last card, a met
            if ev["event"] == "draw":    # challenge's challenger, a roll-off
                q = ev["player"]
                if expect[q] and "drew" in expect[q][-1]:
                    expect[q][-1] = {"drew": min(63, expect[q][-1]["drew"] + 1)}
                else:
                    expect[q] = (expect[q] + [{"drew": 1}])[-16:]
        if s.is_terminal():
            break
        body = json.loads(s.to_json())["state"]
        assert body["belief_records"] == expect, step
        checked += sum(map(len, expect))
    assert checked > 50 and any("drew" in r for recs in expect for r in recs)


def test_records_round_trip_json_and_bytes_and_hostile_ones_are_refused():
    s = heuristic_game(3, seed=11, steps=25)
    game = s.game
    doc = json.loads(s.to_json())
    recs = doc["state"]["belief_records"]
    assert sum(map(len, recs)) >= 2
    assert game.state_from_json(s.to_json()) == s
    assert game.state_from_bytes(s.to_bytes()) == s
    p = next(q for q in range(3) if any("card" in r for r in recs[q]))
    recs[p] = [r for r in recs[p] if "card" in r]

    def load(seat_list):
        d = json.loads(s.to_json())
        d["state"]["belief_records"] = seat_list
        return game.state_from_json(json.dumps(d))

    def load_rec(change):
        lists = [list(x) for x in json.loads(s.to_json())["state"]["belief_records"]]
        lists[p] = [dict(recs[p][0], **change)]
        return load(lists)

    for good in ([{"drew": 1}], [{"drew": 63}, recs[p][0]]):
        lists = [[] for _ in range(3)]
        lists[p] = good
        t = load(lists)
        assert json.loads(t.to_json())["state"]["belief_records"][p] == good
    for bad in ({"drew": 0}, {"drew": 64}, {"drew": True}, {"drew": 2, "card": 5}):
        lists = [[] for _ in range(3)]
        lists[p] = [bad]
        with pytest.raises(InvalidStateError):
            load(lists)

    for bad in ({"card": 999}, {"card": 0x0E}, {"phase": "over"}, {"phase": "direction"},
                {"phase": 3}, {"roll": [7, 1]}, {"roll": [0, 3]}, {"top_card": "5H"},
                {"hand_size": 55}, {"next_size": -1}, {"min_other": True}, {"extra": 1}):
        with pytest.raises(InvalidStateError):
            load_rec(bad)
    # the message names the record and the field
    with pytest.raises(InvalidStateError, match=rf"belief record 0 of seat {p}: 'roll'"):
        load_rec({"roll": [7, 1]})
    with pytest.raises(InvalidStateError, match=rf"belief record 0 of seat {p}: 'hand_size'"):
        load_rec({"hand_size": 0})
    with pytest.raises(InvalidStateError, match=rf"belief record 0 of seat {p}: 'top_card'"):
        load_rec({"top_card": -1})
    for bad in ([[], []], "x", [[], [], [{"card": 5}]], [[], [], [recs[p][0]] * 17], None):
        with pytest.raises(InvalidStateError):
            load(bad)
    # an older save without the field loads with no records
    d = json.loads(s.to_json())
    del d["state"]["belief_records"]
    old = game.state_from_json(json.dumps(d))
    assert json.loads(old.to_json())["state"]["belief_records"] == [[], [], []]
    # a Joker record in a deck without Jokers
    nj = krazy_core.make("krazy-kings", num_players=3, jokers="none")
    d = json.loads(nj.new_initial_state(seed=3).to_json())
    d["state"]["belief_records"][0] = [dict(recs[p][0], card=JOKER)]
    with pytest.raises(InvalidStateError, match="Joker"):
        nj.state_from_json(json.dumps(d))
    # the bytes loader checks the records too: a record past a seat's count, an odd field
    raw = bytearray(s.to_bytes())
    good = s.to_bytes()
    assert game.state_from_bytes(bytes(raw)) == s
    n_changed = 0
    for pos in range(len(raw) - 1, max(0, len(raw) - 600), -1):
        raw2 = bytearray(good)
        raw2[pos] ^= 0xFF
        try:
            t = game.state_from_bytes(bytes(raw2))
        except InvalidStateError:
            n_changed += 1
            continue
        # a flip the loader takes must still be a valid state (a record in range)
        json.loads(t.to_json())
    assert n_changed > 0


# ---------------------------------------------------------------- the model's log weight
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_logweight_equals_the_reference_model_in_real_games_and_their_worlds(players):
    checked = 0
    for seed in range(12):
        s = heuristic_game(players, seed=100 + seed, steps=15 + 7 * seed)
        if s.is_terminal():
            continue
        me = s.current_player()
        for w in [s] + [s.determinize(me, seed=k) for k in range(4)]:
            w = strip_draws(w, me)
            body = json.loads(w.to_json())["state"]
            got = _belief_logweight(w, me)
            assert got == pytest.approx(ref_logweight(body, me), rel=1e-9, abs=1e-9)
            checked += got != 0.0
    assert checked >= 10


def test_a_skipped_better_card_makes_a_world_less_likely():
    """Round Two on 5H: seat 1 discarded 9H from 9H 2H 4C.  HeuristicBot sheds QH (dice
    rarely match 12) before 9H, so a world where seat 1 still holds QH, which it could
    have played, explains the 9H worse than one where QH lies in the stock."""
    s = scripted(n=2, hands=["6S 7S 8D", "9H 2H 4C"], discard=["5H"], cur=1,
                 stock_top=["QH"], round_two=[True, True])
    s.apply_action("9H")
    game = s.game
    body = json.loads(s.to_json())["state"]
    assert body["belief_records"][1][0]["card"] == parse_cards("9H")[0]
    honest = _belief_logweight(s, 0)
    d = json.loads(s.to_json())
    qh, fc = parse_cards("QH")[0], parse_cards("4C")[0]
    hand1 = d["state"]["hands"][1]
    hand1[hand1.index(fc)] = qh
    stock = d["state"]["stock"]
    stock[stock.index(qh)] = fc
    d["state"]["hands"][1] = sorted(hand1)
    other = game.state_from_json(json.dumps(d))
    worse = _belief_logweight(other, 0)
    assert worse < honest - 1.0
    assert honest == pytest.approx(ref_logweight(body, 0))
    assert worse == pytest.approx(ref_logweight(json.loads(other.to_json())["state"], 0))
    # the searcher's own records never count
    assert _belief_logweight(s, 1) == 0.0


def test_a_draw_takes_random_cards_of_the_hand_out_of_earlier_decisions():
    """Seat 1 discarded 9H from 9H 2H QH 4C on 5H (HeuristicBot would have shed QH), then
    drew one card.  Its hand now is 2H QH 4C (three cards); before the draw it lacked one of
    them, each with chance 1/3: when that was QH the 9H is what the heuristic plays, so the
    world's weight takes one of three values, each about a third of the time, the one
    without QH the best."""
    game = krazy_core.make("krazy-kings", num_players=2)
    base = scripted(n=2, hands=["5S 7S 8D", "2H QH 4C"], discard=["5H"], cur=0, round_two=[True, True])
    d = json.loads(base.to_json())
    rec = {"card": parse_cards("9H")[0], "phase": "round_two", "roll": [0, 0],
           "top_card": parse_cards("5H")[0], "hand_size": 4, "next_size": 3, "min_other": 3}
    d["state"]["belief_records"] = [[], [rec, {"drew": 1}]]
    hand = d["state"]["hands"][1]

    def ref(without):
        b = {"hands": [[], [c for c in hand if c != without]],
             "belief_records": [[], [rec]]}
        return ref_logweight(b, 0)

    values = {c: ref(parse_cards(c)[0]) for c in ("QH", "2H", "4C")}   # the card drawn
    assert values["QH"] > max(values["2H"], values["4C"]) + 0.5
    seen = {c: 0 for c in values}
    for k in range(300):
        d["state"]["rng"] = [k + 1, 2 * k + 7, 3, 4]
        w = _belief_logweight(game.state_from_json(json.dumps(d)), 0)
        drawn = [c for c, v in values.items() if w == pytest.approx(v)]
        assert len(drawn) == 1
        seen[drawn[0]] += 1
    assert all(70 <= n <= 130 for n in seen.values()), seen     # 1/3 of 300, +- 4.4 sd


def test_no_records_no_weight_and_games_without_a_model():
    s = krazy_core.make("krazy-kings", num_players=3).new_initial_state(seed=4)
    assert _belief_logweight(s, s.current_player()) == 0.0
    for gid in ("kings-rummy", "contract-rummy", "krass-kariert"):
        g = krazy_core.make(gid)
        assert _belief_logweight(g.new_initial_state(seed=1), 0) is None


# ---------------------------------------------------------------- the search's pool
def test_search_with_beliefs_is_seeded_and_sees_no_hidden_card():
    s = heuristic_game(2, seed=21, steps=20)
    me = s.current_player()
    assert any(json.loads(s.to_json())["state"]["belief_records"])
    a = search(s, iterations=1500, seed=3, beliefs=256)
    b = search(s, iterations=1500, seed=3, beliefs=256)
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    det = s.determinize(me, seed=77)
    assert det != s and det.observation(me) == s.observation(me)
    c = search(det, iterations=1500, seed=3, beliefs=256)
    assert (a.visits, a.values) == (c.visits, c.values)
    d = search(s, iterations=1500, seed=3, beliefs=256, threads=2)
    e = search(det, iterations=1500, seed=3, beliefs=256, threads=2)
    assert (d.visits, d.values) == (e.visits, e.values)


def test_search_without_evidence_is_the_plain_search_bit_for_bit():
    """No opponent has discarded since it drew: every world weighs the same, the pool is
    dropped and the search is exactly the one without beliefs."""
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=8)
    assert not any(json.loads(s.to_json())["state"]["belief_records"][1 - s.current_player()])
    a = search(s, iterations=800, seed=5, beliefs=512)
    b = search(s, iterations=800, seed=5, beliefs=0)
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)


def test_beliefs_option_is_validated():
    s = heuristic_game(2, seed=21, steps=20)
    for bad in (-1, 2**16 + 1, 1.5, True, "64"):
        with pytest.raises(ConfigError, match="beliefs"):
            search(s, iterations=10, beliefs=bad)
    # drawing the pool stops at the deadline (1 ms: a few hundred worlds of 65536)
    r = search(s, time_limit=0.001, seed=1, beliefs=2**16)
    assert r.beliefs is not None and 64 <= r.beliefs["worlds"] < 2**16


def test_result_reports_the_pool_tempered_to_keep_its_spread():
    """Four players: three opponents' evidence multiplied makes a few worlds weigh nearly all;
    the weights are tempered (tau < 1) so that at least 64 worlds count."""
    tempered = 0
    for seed in range(6):
        s = heuristic_game(4, seed=300 + seed, steps=40)
        if s.is_terminal():
            continue
        r = search(s, iterations=1100, seed=1, beliefs=1024)
        if r.beliefs is None:
            continue
        assert r.beliefs["worlds"] == 1024 and r.beliefs["weighted"]
        # no more worlds than the tree's iterations
        assert search(s, iterations=200, seed=1, beliefs=1024).beliefs["worlds"] == 200
        assert 0.0 < r.beliefs["tau"] <= 1.0
        assert r.beliefs["ess"] >= 64.0 - 1e-6
        tempered += r.beliefs["tau"] < 1.0
        me = s.current_player()
        recs = json.loads(s.to_json())["state"]["belief_records"]
        assert set(r.beliefs["heuristic_like"]) <= {q for q in range(4) if q != me and recs[q]}
        assert all(0.0 <= x <= 1.0 for x in r.beliefs["heuristic_like"].values())
    assert tempered >= 2
    assert search(s, iterations=50, seed=1, beliefs=0).beliefs is None


def test_the_pool_tells_a_heuristic_player_from_a_random_one():
    """The posterior that a seat plays like HeuristicBot, read from its recorded discards:
    high for HeuristicBot, low for RandomBot (2 players, several positions each)."""
    def posteriors(opp):
        out = []
        for seed in range(8):
            game = krazy_core.make("krazy-kings", num_players=2)
            s = game.new_initial_state(seed=seed)
            bots = [make_bot("heuristic", seed=seed), make_bot(opp, seed=seed + 1)]
            for k in range(60):
                if s.is_terminal():
                    break
                if s.current_player() == 0 and k >= 20 and len(s.legal_actions()) > 1:
                    r = search(s, iterations=50, seed=k, beliefs=512)
                    if r.beliefs and 1 in r.beliefs["heuristic_like"]:
                        out.append(r.beliefs["heuristic_like"][1])
                s.apply_action(bots[s.current_player()].step(s))
        return out
    h, r = posteriors("heuristic"), posteriors("random")
    assert len(h) >= 10 and len(r) >= 10
    assert sum(x >= 0.5 for x in h) >= 0.7 * len(h)
    assert sum(x < 0.5 for x in r) >= 0.8 * len(r)


def test_opponents_belief_without_a_pool_is_tree_and_takes_no_reuse():
    s = heuristic_game(2, seed=21, steps=20)
    a = search(s, iterations=300, seed=4, opponents="belief", beliefs=0)
    b = search(s, iterations=300, seed=4, opponents="tree", beliefs=0)
    assert (a.visits, a.values) == (b.visits, b.values)
    with pytest.raises(ConfigError, match="reuse"):
        search(s, iterations=10, opponents="belief", beliefs=64, reuse=True)
    first = search(s, iterations=100, seed=2, reuse=True)        # the default yields: tree
    with pytest.raises(ConfigError, match="previous"):
        search(s, iterations=10, opponents="belief", previous=first)
    a = search(s, iterations=400, seed=2, opponents="belief", beliefs=256)
    b = search(s, iterations=400, seed=2, opponents="belief", beliefs=256)
    assert (a.action, a.visits) == (b.action, b.visits)


def test_the_games_default_belief_opponents_yield_to_reuse():
    from krazy_core.search.options import check_options, game_defaults
    d = game_defaults(heuristic_game(2, seed=21, steps=20))
    assert d["beliefs"] == 1024 and d["opponents"] == "belief"
    assert check_options({"iterations": 5}, defaults=d)["opponents"] == "belief"
    assert check_options({"iterations": 5, "reuse": True}, defaults=d)["opponents"] == "tree"
    with pytest.raises(ConfigError, match="reuse"):
        check_options({"iterations": 5, "reuse": True, "opponents": "belief"}, defaults=d)
    # a bot word is checked before it meets a game: opponents=belief alone is fine
    from krazy_core.bots import make_bot
    bot = make_bot("ismcts:50:opponents=belief", seed=3)
    s = heuristic_game(2, seed=21, steps=20)
    assert bot.step(s) in s.legal_actions()
    with pytest.raises(ConfigError, match="beliefs"):
        make_bot("ismcts:50:beliefs=65537")
