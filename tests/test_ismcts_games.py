"""ISMCTS on the real games: determinism, no peeking at hidden cards, obvious winning moves,
bad budgets.  Scripted Krazy Kings and KrassKariert positions reuse ``scripted`` from
test_krazy_kings.py and test_krass_kariert.py."""
import random

import pytest

import krazy_core
from helpers import load_test_file, random_playout, slow_cases
from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.search.bot import ISMCTSBot
from krazy_core.search.ismcts import search

kk = load_test_file("test_krazy_kings")      # tests/games/<game>/ or tests/
ka = load_test_file("test_krass_kariert")


def midgame(game_id, players, seed, steps=None):
    """A seeded state after some random actions, not terminal."""
    game = krazy_core.make(game_id, num_players=players)
    rng = random.Random(seed)
    while True:
        st = game.new_initial_state(seed=seed)
        random_playout(st, rng, max_steps=rng.randrange(0, 40) if steps is None else steps)
        if not st.is_terminal() and len(st.legal_actions()) > 1:
            return st
        seed += 1000


GAMES = krazy_core.available_games()
CAP = 120           # rollout cap (actions) keeping the rummy games' searches fast in tests


# games whose determinize still depends on where the hidden cards lie (known leaks)
LEAKY_DETERMINIZE: dict = {}


def tables(counts):
    """(game_id, players) for each game and each count it allows."""
    from krazy_core.game import get_spec
    out = []
    for g in GAMES:
        spec = get_spec(g)
        out += [(g, n) for n in counts if spec.min_players <= n <= spec.max_players]
    return out


@pytest.mark.parametrize("game_id, players", tables([2, 4]))
def test_same_seed_same_move(game_id, players):
    st = midgame(game_id, players, seed=3)
    a = search(st, iterations=600, seed=9, max_rollout=CAP)
    b = search(st, iterations=600, seed=9, max_rollout=CAP)
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    x = ISMCTSBot(iterations=300, seed=4, max_rollout=CAP).step_with_policy(st)
    y = ISMCTSBot(iterations=300, seed=4, max_rollout=CAP).step_with_policy(st)
    assert x == y


@pytest.mark.parametrize("game_id, players", tables([2, 3, 4]))
@pytest.mark.parametrize("seed", range(4))
def test_never_looks_at_hidden_cards(game_id, players, seed):
    """Search from a state and from a determinization of it for the searcher (other hands,
    the stock order and the dice all changed) gives the same visit distribution.  This needs
    the game's determinize to depend only on what the player saw: it must put the unseen
    cards in a canonical order (sort them) before its shuffle."""
    if game_id in LEAKY_DETERMINIZE:
        pytest.xfail(LEAKY_DETERMINIZE[game_id])
    st = midgame(game_id, players, seed=seed)
    p = st.current_player()
    det = st.determinize(p, seed=seed + 100)
    assert det != st and det.observation(p) == st.observation(p)
    a = search(st, iterations=400, seed=seed, threads=2, max_rollout=CAP)
    b = search(det, iterations=400, seed=seed, threads=2, max_rollout=CAP)
    assert a.visits == b.visits and a.values == b.values
    a = search(st, iterations=400, seed=seed, paired=True, max_rollout=CAP)
    b = search(det, iterations=400, seed=seed, paired=True, max_rollout=CAP)
    assert a.values == b.values and a.policy == b.policy
    bot_a = ISMCTSBot(iterations=200, seed=seed, rollout="random", max_rollout=CAP)
    bot_b = ISMCTSBot(iterations=200, seed=seed, rollout="random", max_rollout=CAP)
    assert bot_a.step_with_policy(st) == bot_b.step_with_policy(det)


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_budgets_and_terminal_states(game_id):
    from krazy_core.game import get_spec
    st = midgame(game_id, get_spec(game_id).min_players, seed=1)
    for bad in ({"iterations": 0}, {"time_limit": -0.5}, {"iterations": 5, "budget": 3}):
        with pytest.raises(ConfigError):
            search(st, **bad)
        with pytest.raises(ConfigError):
            ISMCTSBot(**bad)
    rng = random.Random(2)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    with pytest.raises(IllegalActionError):
        search(st, iterations=10, seed=1)
    with pytest.raises(IllegalActionError):
        ISMCTSBot(iterations=10, seed=1).step(st)


# ---------------------------------------------------------------- Krazy Kings positions
def test_KK_20_goes_out_instead_of_rolling():
    """Last card playable (KK-7, KK-20) or a voluntary roll (may_roll_when_able, KK-8):
    going out wins at once."""
    s = kk.scripted(n=2, hands=["5H", "3D 4D 8S 9C JD"], discard=["5C"], may_roll_when_able=True)
    assert kk.names(s) == ["play 5♥", "roll"]
    r = search(s, iterations=300, seed=1)
    assert s.action_to_string(r.action) == "play 5♥" and r.values[r.action] == 1.0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_KK_16_joker_stops_a_player_about_to_go_out(players, rollout):
    """The next player holds one card: a Joker's roll-off makes them draw a die's worth
    (KK-16), a 3♣ lets them match and go out."""
    hands = ["JK 3C 8D 10S", "3H", "4C 5C 6S 7D", "7H 8H 9S 10D"][:players]
    s = kk.scripted(n=players, hands=hands, discard=["2C"])
    assert kk.names(s) == ["play 3♣", "play 🃏"]
    r = search(s, iterations=2000, seed=2, rollout=rollout)
    assert s.action_to_string(r.action) == "play 🃏" and r.policy[r.action] > 0.8


def test_KK_19_announces_the_last_card():
    """Two cards left: the same discard with and without the announcement; without it the
    player is caught (KK-19) and most likely draws."""
    s = kk.scripted(n=2, hands=["5H 5S", "2C 3D 4S 8C 9D JC"], discard=["5C"])
    r = search(s, iterations=3000, seed=3)
    assert s.action_to_string(r.action).endswith("last card")


# ---------------------------------------------------------------- every game: winning moves
def _wins(state, a, p):
    c = state.clone()
    c.apply_action(a)
    if not c.is_terminal():
        return False
    r = c.returns()
    return r[p] == max(r) and r.count(r[p]) == 1


def _winning_position(game_id, players, games=60):
    """The first decision of seeded random games where some legal actions end the game with
    the player to act the sole winner and others do not: (state, winning actions)."""
    game = krazy_core.make(game_id, num_players=players)
    rng = random.Random(1)
    for seed in range(games):
        st = game.new_initial_state(seed=seed)
        while not st.is_terminal():
            legal, p = st.legal_actions(), st.current_player()
            if len(legal) > 1:
                # a sure win: it wins in the state and in 8 determinizations for p (other
                # hands, stock and dice resampled), so luck the player can't see plays no part
                worlds = [st] + [st.determinize(p, seed=k) for k in range(8)]
                win = [a for a in legal if all(_wins(w, a, p) for w in worlds)]
                if win and len(win) < len(legal):
                    return st, win
            st.apply_action(rng.choice(legal))
    return None, None


@pytest.mark.parametrize("game_id", GAMES)
@slow_cases('contract-rummy')
def test_takes_a_winning_move_when_one_exists(game_id):
    """Game-blind: a position of seeded random play where some moves win the game at once
    (going out in the last round) and others don't: the search takes a winning one."""
    from krazy_core.game import get_spec
    st, win = _winning_position(game_id, max(2, get_spec(game_id).min_players))
    if st is None:
        pytest.skip(f"no sure immediate win beside non-winning moves in 60 random {game_id} games")
    for rollout in ("heuristic", "random"):
        r = search(st, iterations=1000, seed=1, rollout=rollout, max_rollout=CAP)
        assert r.action in win, (st.action_to_string(r.action), [st.action_to_string(a) for a in win])


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_KA_14_leads_the_pair_that_leaves_the_last_opponent_holding_cards(rollout):
    """KrassKariert, everyone at 0 chips (KA-15), seat 2 already out.  Seat 0 leads holding
    3 3; seat 1 holds a 12 and no reserve.  Leading the pair empties seat 0's hand and leaves
    seat 1 alone holding cards (KA-14a): seat 1 must give a chip it does not have and loses.
    Leading either 3 alone lets the 12 beat it and go out (a player without reserves who can
    beat must, KA-14), which leaves seat 0 holding cards: seat 0 loses."""
    s = ka.scripted([[3, 3], [12], []], reserves=[[None, None]] * 3, leader=0, chips=[0, 0, 0])
    pair = s.string_to_action("play 0-1 pair 3")
    assert sorted(s.action_to_string(a) for a in s.legal_actions()) == \
        ["play 0 solo 3", "play 0-1 pair 3", "play 1 solo 3"]
    for a in s.legal_actions():              # the stakes as stated: each move decides the game
        c = s.clone()
        c.apply_action(a)
        while not c.is_terminal():
            (only,) = c.legal_actions()
            c.apply_action(only)
        assert c.returns()[0] == (1.0 if a == pair else 0.0)
    r = search(s, iterations=300, seed=1, rollout=rollout)
    assert r.action == pair and r.policy[pair] > 0.9


def test_crazy_rummy_searches_flat_unless_told():
    """Crazy Rummy's default tree is the root and its moves (tree_depth=1, search_defaults);
    tree_depth=None grows the full tree."""
    st = midgame("contract-rummy", 4, 3)
    n = len(st.legal_actions())          # midgame() gives a choice of 2 or more
    flat = search(st, iterations=200, seed=3)
    assert flat.nodes == 1 + n and flat.max_depth == 1
    deep = search(st, iterations=200, seed=3, tree_depth=None)
    assert deep.max_depth > 1 and deep.nodes > flat.nodes


def test_game_search_defaults_fill_unset_options():
    """Kings Rummy searches flat with paired root worlds unless told otherwise
    (GameSpec.search_defaults); an explicit option wins; other games keep the generic ones."""
    from krazy_core.search.ismcts import game_defaults
    st = midgame("kings-rummy", 2, 3)
    assert game_defaults(st) == {"paired": True, "tree_depth": 1}
    flat = search(st, iterations=200, seed=5, max_rollout=CAP)
    deep = search(st, iterations=200, seed=5, max_rollout=CAP, tree_depth=None)
    assert flat.nodes == 1 + len(st.legal_actions()) < deep.nodes
    assert game_defaults(midgame("krazy-kings", 2, 3)) == {            # issues 18, 33
        "prior_from": "model", "beliefs": 1024, "opponents": "belief"}
    assert game_defaults(midgame("contract-rummy", 4, 3)) == {"tree_depth": 1}
    default = search(st, iterations=60, seed=5)
    paired = search(st, iterations=60, seed=5, paired=True)
    unpaired = search(st, iterations=60, seed=5, paired=False)
    assert default.policy == paired.policy and default.values == paired.values
    assert unpaired.policy != paired.policy
    bot = ISMCTSBot(iterations=60, seed=9)
    a, policy = bot.step_with_policy(st)
    assert policy == ISMCTSBot(iterations=60, seed=9, paired=True).step_with_policy(st)[1]


@pytest.mark.parametrize("game_id", GAMES)
def test_tree_reuse_between_moves(game_id):
    """reuse=True: after the searcher's move and the others' replies the next search starts
    from the subtree the old tree grew along that line (root visits carried over), the same
    way from the state and from its determinization (nothing hidden decides it), and never
    for a new deal of the same game."""
    from krazy_core.game import get_spec
    game = krazy_core.make(game_id, num_players=get_spec(game_id).min_players)
    st = game.new_initial_state(seed=11)
    rng = random.Random(11)
    prev, carried = None, []
    for _ in range(400):
        if st.is_terminal() or len(carried) >= 6:
            break
        legal = st.legal_actions()
        if st.current_player() == 0 and len(legal) > 1:
            r = search(st, iterations=300, seed=5, reuse=True, previous=prev, max_rollout=CAP)
            det = st.determinize(0, seed=9)
            twin = search(det, iterations=300, seed=5, reuse=True, previous=prev, max_rollout=CAP)
            assert (twin.reused, twin.visits, twin.values) == (r.reused, r.visits, r.values)
            assert sum(r.visits.values()) <= r.reused + 300
            carried.append(r.reused)
            prev = r
            st.apply_action(r.action)
        else:
            st.apply_action(rng.choice(legal))
    assert carried[0] == 0 and any(c > 0 for c in carried[1:]), carried
    other_deal = game.new_initial_state(seed=12)
    if not other_deal.is_terminal() and len(other_deal.legal_actions()) > 1:
        first = search(other_deal, iterations=100, seed=1, reuse=True, max_rollout=CAP)
        again = game.new_initial_state(seed=13)         # same (empty) history, other cards
        if again.current_player() == other_deal.current_player() and len(again.legal_actions()) > 1:
            assert search(again, iterations=50, seed=1, previous=first, max_rollout=CAP).reused == 0
        assert search(other_deal, iterations=50, seed=1, previous=first, max_rollout=CAP).reused == 100
