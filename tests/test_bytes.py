"""Issue 12 item 9: the binary form of every game's state (``State.to_bytes`` /
``game.state_from_bytes``, pickle through it), and issue 19 item 8: every state a loader
accepts stays serializable by every path (JSON, bytes, pickle).

The two loaders share one C validator per game (``ops.validate``): a state one accepts,
the other accepts too (checked here on real states after every action and on mutated
bytes, whose accepted ones must read back through the JSON)."""
import json
import pickle
import random
import struct

import pytest

import krazy_core
from krazy_core.errors import InvalidStateError
from krazy_core.game import get_spec
from helpers import GAMES, boundary_states, state_after_random_steps

HDR = 40
TABLES = [(g, n) for g in GAMES for n in range(get_spec(g).min_players, get_spec(g).max_players + 1)]


def restamp(b):
    """``b`` with its header's checksum recomputed (so a test reaches the validator)."""
    from krazy_core._state import _checksum_of
    b = bytearray(b)
    b[36:40] = struct.pack("<I", _checksum_of(bytes(b[HDR:])))
    return bytes(b)


def _paths(s):
    """The state read back by every path: bytes, JSON, pickle."""
    g = s.game
    return (g.state_from_bytes(s.to_bytes()), g.state_from_json(s.to_json()),
            pickle.loads(pickle.dumps(s)))


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("game_id,n", TABLES)
def test_round_trip_first_actions(game_id, n):
    """The fast tier's round trip: the first 30 actions of a seeded game, every path."""
    game = krazy_core.make(game_id, num_players=n)
    s = game.new_initial_state(11)
    rng = random.Random(11)
    for _ in range(30):
        for x in _paths(s):
            assert x == s and x.to_json() == s.to_json()
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))


# every path is compared after each of the first EVERY_ACTION actions, then after every
# EVERY-th and at the end (each comparison writes the whole log: a long game is quadratic)
EVERY_ACTION = 200
EVERY = 5


@pytest.mark.slow
@pytest.mark.parametrize("game_id,n", TABLES)
def test_round_trip_after_every_action(game_id, n):
    """Seeded random games of every game and table size: after every action (after every
    ``EVERY``-th past the first ``EVERY_ACTION``, and at the end) the state read back from
    its bytes equals it (``==``: the struct and the log), writes the same JSON, and the JSON
    and pickle paths agree; a shadow game that is replaced by its own read-back
    copy (bytes, then JSON, then pickle, in turn) before every action stays identical to the
    original to the end (fingerprint: the JSON after every action)."""
    game = krazy_core.make(game_id, num_players=n)
    # the default table to the end of the game; the others for their first 120 actions
    cap = 10**6 if n == get_spec(game_id).default_players else 120
    for seed in (1,):
        s = game.new_initial_state(seed)
        shadow = s.clone()
        rng = random.Random(seed)
        k = 0
        while True:
            j = s.to_json()
            if k < EVERY_ACTION or k % EVERY == 0 or s.is_terminal():
                b, jj, p = _paths(s)
                assert b == s and p == s
                assert b.to_json() == j and jj.to_json() == j and p.to_json() == j
                assert b.to_bytes() == s.to_bytes() and jj.history() == s.history()
            shadow = (game.state_from_bytes(shadow.to_bytes()), game.state_from_json(shadow.to_json()),
                      pickle.loads(pickle.dumps(shadow)))[k % 3]
            assert shadow.to_json() == j
            if s.is_terminal() or k >= cap:
                break
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            shadow.apply_action(a)
            k += 1
        assert k > 5


@pytest.mark.parametrize("game_id", GAMES)
def test_fast_to_json_is_the_json_dumps_text(game_id):
    """to_json() writes events and history in C: the same text json.dumps writes (the
    fingerprints hash that text)."""
    s = state_after_random_steps(game_id, 3, 60)
    doc = json.loads(s.to_json())
    assert s.to_json() == json.dumps(doc) == s.to_json(ensure_ascii=True)
    assert doc["events"] == [list(e) for e in s.raw_events()]
    assert doc["history"] == [list(h) for h in s.full_history()]
    fresh = s.game.new_initial_state(0)
    assert json.loads(fresh.to_json())["history"] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_header_layout(game_id):
    s = state_after_random_steps(game_id, 4, 30)
    b = s.to_bytes()
    magic, ver, hsize, gid, ssize, n_ev, n_hist, _ = struct.unpack("<4sHH16sIIII", b[:HDR])
    assert (magic, ver, hsize) == (b"KZST", 1, 40)
    assert gid.rstrip(b"\0").decode() == game_id
    assert n_ev == 4 * s.num_events and n_hist == 2 * len(s.history())
    assert len(b) == HDR + ssize + 4 * (n_ev + n_hist)
    assert s.game.state_from_bytes(bytearray(b)) == s
    assert s.game.state_from_bytes(memoryview(b)) == s


# ------------------------------------------------------------------ hostile bytes
@pytest.mark.parametrize("game_id", GAMES)
def test_wrong_header_fields_raise(game_id):
    s = state_after_random_steps(game_id, 5, 40)
    b = s.to_bytes()
    game = s.game
    other = [g for g in GAMES if g != game_id][0]
    cases = {
        "magic": b"XZST" + b[4:],
        "bytes format 2": b[:4] + struct.pack("<H", 2) + b[6:],
        "header is": b[:6] + struct.pack("<H", 48) + b[8:],
        "for game": b[:8] + other.encode().ljust(16, b"\0") + b[24:],
        "struct": b[:24] + struct.pack("<I", len(b)) + b[28:],
        "announce": b[:28] + struct.pack("<I", 3) + b[32:],
        "corrupted": b[:-1] + bytes([b[-1] ^ 1]),
    }
    for what, bad in cases.items():
        with pytest.raises(InvalidStateError, match=what):
            game.state_from_bytes(bad)
    with pytest.raises(InvalidStateError, match="for game"):
        krazy_core.make(other).state_from_bytes(b)
    for n in range(len(b)):                       # truncated anywhere
        if n % 7 == 0 or n < 64:
            with pytest.raises(InvalidStateError):
                game.state_from_bytes(b[:n])
    with pytest.raises(InvalidStateError):
        game.state_from_bytes(b + b"\0\0\0\0")
    for junk in (None, 5, "text", [1, 2], object()):
        with pytest.raises(InvalidStateError):
            game.state_from_bytes(junk)


@pytest.mark.parametrize("game_id", GAMES)
def test_other_table_or_options_raise(game_id):
    spec = get_spec(game_id)
    s = state_after_random_steps(game_id, 6, 20)
    n = s.num_players()
    m = n + 1 if n < spec.max_players else n - 1
    with pytest.raises(InvalidStateError):
        krazy_core.make(game_id, num_players=m).state_from_bytes(s.to_bytes())
    opt = {"krazy-kings": {"max_turns": 499}, "kings-rummy": {"max_turns": 301},
           "contract-rummy": {"jokers": 3}, "krass-kariert": {"two_straight": False}}[game_id]
    with pytest.raises(InvalidStateError, match="options"):
        krazy_core.make(game_id, **opt).state_from_bytes(s.to_bytes())


def _struct(b):
    return bytearray(b[HDR:HDR + struct.unpack("<I", b[24:28])[0]])


def _with_struct(b, st):
    return restamp(b[:HDR] + bytes(st) + b[HDR + len(st):])


@pytest.mark.parametrize("game_id,field,what", [
    ("krazy-kings", "stock", "exactly one deck"),       # the stock's card codes, bottom first
    ("kings-rummy", "hand0", "116 cards"),              # hand 0's card codes, ascending
    ("krass-kariert", "hand0", "54 cards"),             # hand 0's card codes, in hand order
])
def test_inconsistent_card_multiset_raises(game_id, field, what):
    """A card copied over its neighbour (the deck no longer exact: KK-1, KR-1, KA-1), the
    checksum recomputed so that only the validator stands in the way.  The cards are found
    in the struct as the bytes of the JSON's list."""
    s = state_after_random_steps(game_id, 7, 10)
    body = json.loads(s.to_json())["state"]
    cards = body["hands"][0] if field == "hand0" else body[field]
    if game_id == "kings-rummy":
        cards = sorted(cards)
    b = s.to_bytes()
    st = _struct(b)
    offset = bytes(st).find(bytes(cards))
    assert offset > 0
    i = next(i for i in range(len(cards) - 1) if cards[i] != cards[i + 1])
    st[offset + i] = st[offset + i + 1]
    with pytest.raises(InvalidStateError, match=what):
        s.game.state_from_bytes(_with_struct(b, st))


def test_contract_rummy_card_counts_raise():
    """CRState: rng (32), then hand[6][53] copies per kind: one more copy of a kind
    (CR-1: two decks), or a copy moved without its hand size (nhand)."""
    s = state_after_random_steps("contract-rummy", 7, 10)
    b = s.to_bytes()
    st = _struct(b)
    k = next(k for k in range(53) if st[32 + k] == 1)
    st[32 + k] = 2
    with pytest.raises(InvalidStateError, match="hand's size|exactly the deck"):
        s.game.state_from_bytes(_with_struct(b, st))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_struct_byte_set_to_extremes(game_id):
    """Every byte of the struct set to 0x00, 0x01, 0x7F, 0x80, 0xFF in turn (checksum
    recomputed): refused with InvalidStateError, or accepted as a state that the JSON loader
    reads back identically (the loaders agree) and that plays on, serializable by every path
    after every action."""
    s = state_after_random_steps(game_id, 8, 50)
    b = s.to_bytes()
    st = _struct(b)
    game = s.game
    accepted = refused = 0
    for i in range(len(st)):
        for v in (0x00, 0x01, 0x7F, 0x80, 0xFF):
            if st[i] == v:
                continue
            t = bytearray(st)
            t[i] = v
            try:
                x = game.state_from_bytes(_with_struct(b, t))
            except InvalidStateError:
                refused += 1
                continue
            accepted += 1
            assert game.state_from_json(x.to_json()).to_bytes()[HDR:] == x.to_bytes()[HDR:] or \
                game.state_from_json(x.to_json()).to_json() == x.to_json()
            if accepted % 25 == 0:
                rng = random.Random(i)
                for _ in range(20):
                    if x.is_terminal():
                        break
                    x.apply_action(rng.choice(x.legal_actions()))
                    _paths(x)
    assert refused > len(st)        # most single-byte changes break an invariant
    assert accepted > 0             # the rng words, for instance, take any nonzero value


@pytest.mark.parametrize("game_id", GAMES)
def test_hostile_events_and_history_in_bytes_raise(game_id):
    s = state_after_random_steps(game_id, 9, 20)
    b = bytearray(s.to_bytes())
    ssize = struct.unpack("<I", b[24:28])[0]
    ev = HDR + ssize
    n_ev = struct.unpack("<I", b[28:32])[0]
    for off, val, what in ((0, 0, "kind"), (0, 10**6, "kind"), (4, 9, "player"), (4, -2, "player")):
        t = bytearray(b)
        t[ev + off:ev + off + 4] = struct.pack("<i", val)
        with pytest.raises(InvalidStateError, match=what):
            s.game.state_from_bytes(restamp(t))
    h = ev + 4 * n_ev
    for off, val in ((0, 9), (0, -1), (4, -1), (4, s.game.num_distinct_actions)):
        t = bytearray(b)
        t[h + off:h + off + 4] = struct.pack("<i", val)
        with pytest.raises(InvalidStateError, match="history"):
            s.game.state_from_bytes(restamp(t))


# ------------------------------------------------------------------ issue 19 item 8
@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_boundary_states_stay_serializable_by_every_path(game_id):
    """Issue 19 item 8 by every path: a state with a counter at the loader's maximum
    (KR turn_limits/total_turns/scores, CR limit_rounds/total_turns/buys, KA hand_no/
    trick_no/turn/leader, ...) is read back by bytes, JSON and pickle after every action
    while it plays to the end (or 150 actions)."""
    checked = 0
    for key, t in boundary_states(game_id):
        for x in _paths(t):
            assert x.to_json() == t.to_json()
        play = random.Random(7)
        n = 0
        while not t.is_terminal() and n < 150:
            t.apply_action(play.choice(t.legal_actions()))
            n += 1
            for x in _paths(t):
                assert x.to_json() == t.to_json(), key
        checked += 1
    assert checked >= 4


def test_krass_kariert_leader_must_start_the_trick():
    """Issue 19 item 8 (KA-9): a leader the trick does not start with was accepted and the
    lap then went round wrongly (the state refused its own JSON two actions later)."""
    game = krazy_core.make("krass-kariert")
    s = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while True:
        s.apply_action(rng.choice(s.legal_actions()))
        doc = json.loads(s.to_json())
        if doc["state"]["trick"] and doc["state"]["best_player"] >= 0:
            break
    lead = doc["state"]["trick"][0]["player"]
    assert doc["state"]["leader"] == lead
    taken = {lead, doc["state"]["current_player"], doc["state"]["best_player"]}
    doc["state"]["leader"] = min(set(range(game.num_players)) - taken)
    with pytest.raises(InvalidStateError, match="first entry is the leader's"):
        game.state_from_json(json.dumps(doc))


def test_unreadable_event_fields_render_raw():
    """An event whose card field names no card loads (display data) and renders as its
    raw numbers in every view, never an error later."""
    game = krazy_core.make("krazy-kings")
    s = state_after_random_steps("krazy-kings", 1, 10)
    doc = json.loads(s.to_json())
    i = next(i for i, e in enumerate(doc["events"]) if e[0] == 6)    # a play: a is a card code
    doc["events"][i][2] = 255
    t = game.state_from_json(json.dumps(doc))
    for viewer in (None, "all", 0, 1):
        ev = t.events_for(viewer)[i]
        assert ev == {"kind": 6, "player": doc["events"][i][1], "a": 255, "b": doc["events"][i][3],
                      "unreadable": True}
    assert game.state_from_bytes(t.to_bytes()).events_for("all") == t.events_for("all")


def test_krazy_kings_pile_slots_past_their_cards_must_be_0():
    """States compare by their bytes: a card code left in the stock's or the discard pile's
    unused slots would make a state unequal to its own JSON round trip (the bytes loader
    took it until 2026-12-05).  KKState: rng (32 bytes), hand[5] (40), stock[54], discard[54]."""
    s = state_after_random_steps("krazy-kings", 5, 30)
    b = s.to_bytes()
    body = json.loads(s.to_json())["state"]
    n_stock, n_discard = len(body["stock"]), len(body["discard"])
    assert n_stock < 54 and n_discard < 54
    for offset in (72 + n_stock, 126 + n_discard):
        st = _struct(b)
        st[offset] = 0x21                      # a card code, in a slot past the pile's top
        with pytest.raises(InvalidStateError, match="slots past their cards are 0"):
            s.game.state_from_bytes(_with_struct(b, st))
    assert s.game.state_from_bytes(b) == s
