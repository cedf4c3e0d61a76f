"""Every krazy_core game as an OpenSpiel (pyspiel) Python game
(``pip install 'krazy_core[openspiel]'``).

    >>> import pyspiel
    >>> from krazy_core.envs import openspiel
    >>> openspiel.register()
    ['python_contract_rummy', 'python_kings_rummy', 'python_krass_kariert', 'python_krazy_kings', 'python_contract_rummy_chance', 'python_kings_rummy_chance', 'python_krass_kariert_chance', 'python_krazy_kings_chance']
    >>> game = pyspiel.load_game("python_krazy_kings(players=4,max_turns=300)")
    >>> state = game.new_initial_state()
    >>> pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    >>> chance = pyspiel.load_game("python_krass_kariert_chance(players=3)")
    >>> pyspiel.random_sim_test(chance, num_sims=1, serialize=True, verbose=False)

Each game is registered twice: ``python_<game>`` with sampled chance, and
``python_<game>_chance`` with explicit chance (see "Explicit chance" below).

Short names: ``python_krazy_kings``, ``python_kings_rummy``, ``python_contract_rummy``,
``python_krass_kariert``; parameters: ``players`` and every game option (``krazy rules
GAME``), plus ``seed`` (int, default 0): the ``k``-th state a loaded game makes with
``new_initial_state()`` is dealt from the ``k``-th draw of ``krazy_core.rng.Rng(seed)``, so a
loaded game is reproducible.  Clones do not count: pyspiel clones a Python state by calling
``new_initial_state()`` and copying the attributes over, and such a state gives its deal
back (so two agents on one seed see the same deals however often their bots cloned).

- Chance: ``SAMPLED_STOCHASTIC``: dice and shuffles are drawn from the state's own PRNG
  inside ``apply_action`` (no chance nodes), as in the core.
- Observation tensor: ``State.observation_tensor(player)`` (float32, the game's
  ``observation_tensor_shape``); observation string: the JSON of
  ``State.observation(player)`` (what that seat may see).
- Information state: string = the observation JSON and the public action history
  (its length and a BLAKE2b digest chained over its ``(seat, action)`` pairs: every action is seen by
  every seat; a digest keeps the string short in games of thousands of actions), so it
  depends only on what
  the seat has seen and two states a seat cannot tell apart give the same string; tensor =
  the observation tensor (fixed size: not perfect recall beyond what the tensor holds).
- ``resample_from_infostate(player, sampler)``: ``State.determinize(player, seed)`` with
  the seed drawn from ``sampler`` (the other hands, the stock order and the future dice
  dealt again consistently with what ``player`` has seen).  OpenSpiel's Python
  ``ISMCTSBot`` uses it.
- Serialization: ``state.serialize()`` / ``game.deserialize_state()`` round-trip (pyspiel's
  Python-game form: history plus the pickled attributes; our state pickles as its JSON).
  ``pyspiel.serialize_game_and_state``, ``random_sim_test(..., serialize=True)`` and
  pickle/deepcopy of a pyspiel state do **not** work: for a ``SAMPLED_STOCHASTIC`` game
  they ask ``Game::GetRNGState``, which pyspiel 2.0.2 does not forward to Python games
  (``SpielError: GetRNGState unimplemented``); use ``random_sim_test(..., serialize=False)``
  and ``state.clone()``.
- Algorithms: those that only sample play run (OpenSpiel's Python ``ISMCTSBot`` with
  ``resample_from_infostate``, Python ``MCTSBot``, random rollouts).  Those that need
  chance nodes (outcome/external sampling MCCFR, ``chance_outcomes()``-driven code,
  expectimax, exact best responses) do not: chance is not explicit here.  pyspiel's C++
  ``MCTSBot``/``ISMCTSBot`` cannot drive any Python game.
- Utility: ``returns()`` (constant sum: 1 in every game but KrassKariert, where the one
  loser gets 0 and everyone else 1, so ``num_players - 1``).
- An illegal action raises ``IllegalActionError`` (a ``ValueError``), the state unchanged.

Explicit chance (``python_<game>_chance``, ``EXPLICIT_STOCHASTIC``; parameters: ``players``
and the game options, no ``seed``): every random draw the engine makes is a chance node.
The engine draws only through ``kz_bounded(n)`` (uniform in ``[0, n)``, exactly: the deal's
Fisher-Yates shuffle of ``m`` cards is draws of ``m, m-1, ..., 2``; a die is a draw of 6, so a
roll is 36 outcomes in two nodes; a reshuffle of the discard pile, a new round's deal), so a
chance node's outcomes are ``range(n)``, each with probability ``1/n``, and
``chance_outcomes()`` is exact.  The initial state is the deal's first chance node; a
player's action that draws is followed by its chance nodes (the action is applied when the
last draw is chosen, the state before it shown meanwhile).  How: the step is replayed with
the state's generator "taped" (``src/krazy/rng.h``: a generator whose first three words are
zero reads its draws from a tape; ``krazy_core._state.apply_taped``), so the rules are the
engine's own, unchanged.  The state's generator then holds a fixed value, so a state is a
function of its history: ``serialize_game_and_state``, ``random_sim_test(...,
serialize=True)``, pickle and deepcopy work, and so do the algorithms that read chance:
outcome/external sampling MCCFR and OpenSpiel's Python ``ISMCTSBot``.  MCCFR runs, slowly
(an iteration is a whole game through Python; a rummy game recurses deeper than Python's
default limit), but a whole game's chance probability (a 54-card shuffle alone is 1/54!)
underflows its float64 reach products, so outcome sampling's regrets come out NaN: an API
check here, not a solver.  A chance outcome is a draw's index, not a card name
(``action_to_string`` gives ``"draw i of n"``).  pyspiel's C++ ``MCTSBot``/``ISMCTSBot``
drive neither registration (pyspiel 2.0.2 cannot run them over a Python game).
"""

from __future__ import annotations

import hashlib
import json
from typing import Dict

import numpy as np

try:
    import pyspiel
except ImportError as _e:                   # pragma: no cover - the extra is missing
    raise ImportError("krazy_core.envs.openspiel needs open_spiel: "
                      "pip install 'krazy_core[openspiel]'") from _e

import krazy_core
from krazy_core.game import get_spec
from krazy_core._state import Tape, apply_taped, new_state_taped
from krazy_core.errors import IllegalActionError
from krazy_core.rng import Rng
from krazy_core.bots import make_bot

__all__ = ["register", "short_name", "SHORT_NAMES", "CHANCE_NAMES", "KrazyBot"]

SHORT_NAMES = {g: "python_" + g.replace("-", "_") for g in krazy_core.available_games()}
CHANCE_NAMES = {g: n + "_chance" for g, n in SHORT_NAMES.items()}


def short_name(game_id: str) -> str:
    """``"krazy-kings"`` -> ``"python_krazy_kings"``."""
    return SHORT_NAMES[game_id]


def _utility_sum(game_id: str, n: int) -> float:
    """``returns()`` summed over a table of ``n`` (the game's ``GameSpec.utility_sum``)."""
    return float(get_spec(game_id).utility_sum(n))


def _max_game_length(game) -> int:
    """A bound on the actions of one game for OpenSpiel's ``max_game_length``: the game's
    ``GameSpec.max_game_length`` (each game's turn cap, KK-20, KR-17, CR-17, times generous
    actions per turn; KrassKariert, with no cap, ends within its hands: measured random games
    stay under 350 actions), 20000 for a game that gives none."""
    f = game.spec.max_game_length
    return int(f(game)) if f is not None else 20000


_CLASSES: Dict[str, type] = {}


def _game_type(game_id: str) -> "pyspiel.GameType":
    spec = get_spec(game_id)
    params = {"players": spec.default_players, "seed": 0}
    for o in spec.options:
        params[o.name] = o.default
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game_id],
        long_name=f"krazy_core {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class KrazySpielGame(pyspiel.Game):
    """A krazy_core game as a pyspiel Python game (module docstring)."""

    GAME_ID = "krazy-kings"         # each registered subclass names its game

    def __init__(self, params=None):
        params = dict(params or {})
        game_id = self.GAME_ID
        gtype = _game_type(game_id)
        full = dict(gtype.parameter_specification)
        full.update(params)
        options = {k: v for k, v in full.items() if k not in ("players", "seed")}
        self.kgame = krazy_core.make(game_id, num_players=int(full["players"]), **options)
        n = self.kgame.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kgame.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=float(self.kgame.min_utility),
            max_utility=float(self.kgame.max_utility),
            utility_sum=_utility_sum(game_id, n),
            max_game_length=_max_game_length(self.kgame))
        super().__init__(gtype, info, full)
        self._deals = Rng(int(full["seed"]))
        self._dealt = 0                 # states dealt so far (clones not counted)
        self._before = self._deals      # the generator before the last deal (for a clone)

    def new_initial_state(self):
        """The next deal: the ``k``-th state made is dealt from the ``k``-th draw of
        ``Rng(seed)``.  pyspiel clones a Python state by calling this and then overwriting
        the new state's attributes with copies of the original's; the state notices that
        (``KrazySpielState.__setattr__``) and hands its deal back, so clones and
        deserializations never move the sequence of deals."""
        self._before = self._deals.__copy__()
        deal = self._deals.next_u64()
        self._dealt += 1
        state = KrazySpielState(self, self.kgame.new_initial_state(deal))
        object.__setattr__(state, "_deal_no", self._dealt)
        return state

    def _give_back(self, deal_no):
        """A state made by deal ``deal_no`` became a clone: undo that deal if it is still
        the last one (pyspiel's ``Clone`` overwrites the state right after making it)."""
        if deal_no == self._dealt:
            self._deals = self._before
            self._dealt -= 1

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KrazyObserver(self.kgame, info_state=perfect_recall)


class KrazySpielState(pyspiel.State):
    """A pyspiel state over a ``krazy_core.State`` (attribute ``kstate``)."""

    def __init__(self, game, kstate=None):
        super().__init__(game)
        self.kstate = kstate if kstate is not None else game.kgame.new_initial_state(0)
        self.history_key = "0"          # actions applied, then a digest chained over them

    def __setattr__(self, name, value):
        # pyspiel's Clone (and deserialization) makes a state with new_initial_state() and
        # then sets every attribute of the original on it: the first such write on a fresh
        # state gives its deal back to the game, so deals do not depend on clones.  Only
        # new_initial_state sets ``_deal_no`` (bypassing this method); a copied one is 0.
        if name in ("kstate", "_deal_no"):
            no = self.__dict__.get("_deal_no", 0)
            if no and (name == "_deal_no" or "kstate" in self.__dict__):
                object.__setattr__(self, "_deal_no", 0)
                self.get_game()._give_back(no)
            if name == "_deal_no":
                value = 0
        object.__setattr__(self, name, value)

    def current_player(self):
        p = self.kstate.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def _legal_actions(self, player):
        return self.kstate.legal_actions() if player == self.kstate.current_player() else []

    def _apply_action(self, action):
        p = self.kstate.current_player()
        self.kstate.apply_action(int(action))
        n, _, digest = self.history_key.partition(" ")
        self.history_key = f"{int(n) + 1} " + hashlib.blake2b(
            f"{digest}|{p}:{int(action)}".encode(), digest_size=12).hexdigest()

    def _action_to_string(self, player, action):
        try:
            return self.kstate.action_to_string(int(action))
        except Exception:
            return str(action)

    def is_terminal(self):
        return self.kstate.is_terminal()

    def returns(self):
        return [float(x) for x in self.kstate.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: ``determinize(player_id, seed)``,
        the seed drawn from ``probability_sampler`` (a callable giving floats in [0, 1))."""
        u = float(probability_sampler())
        seed = int(u * 2.0 ** 53) ^ (len(self.history()) << 53)
        c = self.clone()
        c.kstate = self.kstate.determinize(int(player_id), seed)
        return c

    def __str__(self):
        return str(self.kstate)


class KrazyObserver:
    """pyspiel Python observer: ``tensor`` (the observation tensor) and ``string_from``
    (observation JSON; with ``info_state`` also the public action history)."""

    def __init__(self, kgame, info_state=False):
        self.info_state = info_state
        self.tensor = np.zeros(kgame.observation_tensor_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if state.kstate is None:            # explicit chance, the deal not yet drawn
            self.tensor[:] = 0.0
            return
        self.tensor[:] = state.kstate.observation_tensor(player)

    def string_from(self, state, player):
        if state.kstate is None:
            return "dealing"
        obs = json.dumps(state.kstate.observation(player), sort_keys=True, separators=(",", ":"))
        if not self.info_state:
            return obs
        return f"{obs}|history {state.history_key}"


# ------------------------------------------------------------------ explicit chance
# The state's generator in explicit-chance play: every draw comes from a chance node, so the
# generator's own words never matter; one fixed value keeps a state a function of its history.
_WORDS = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0x2545F4914F6CDD1D)
_DEAL = -1                          # the pending step is the deal, not a player's action


def _chance_game_type(game_id: str) -> "pyspiel.GameType":
    spec = get_spec(game_id)
    params = {"players": spec.default_players}
    for o in spec.options:
        params[o.name] = o.default
    return pyspiel.GameType(
        short_name=CHANCE_NAMES[game_id],
        long_name=f"krazy_core {spec.name} (explicit chance)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class KrazyChanceGame(pyspiel.Game):
    """A krazy_core game with explicit chance (module docstring, "Explicit chance")."""

    GAME_ID = "krazy-kings"

    def __init__(self, params=None):
        params = dict(params or {})
        game_id = self.GAME_ID
        gtype = _chance_game_type(game_id)
        full = dict(gtype.parameter_specification)
        full.update(params)
        options = {k: v for k, v in full.items() if k != "players"}
        self.kgame = krazy_core.make(game_id, num_players=int(full["players"]), **options)
        tape = Tape(())
        new_state_taped(self.kgame, tape, _WORDS)
        self.first_draw = tape.need          # the deal's first draw: the whole deck
        n = self.kgame.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kgame.num_distinct_actions,
            max_chance_outcomes=max(self.first_draw, 6),
            num_players=n,
            min_utility=float(self.kgame.min_utility),
            max_utility=float(self.kgame.max_utility),
            utility_sum=_utility_sum(game_id, n),
            max_game_length=_max_game_length(self.kgame))
        super().__init__(gtype, info, full)

    def new_initial_state(self):
        """A chance node: the deal, one draw at a time (the deck's shuffle, then any dice)."""
        return KrazyChanceState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KrazyObserver(self.kgame, info_state=perfect_recall)


class KrazyChanceState(pyspiel.State):
    """A pyspiel state over a ``krazy_core.State`` (``kstate``; ``None`` until the deal's
    draws are chosen) whose random draws are chance nodes.  ``pending``: ``None`` at a
    player's node, else ``(step, outcomes so far, n)``: ``step`` the player's action being
    applied (or -1 for the deal), the next draw uniform over ``range(n)``."""

    def __init__(self, game):
        super().__init__(game)
        self.kstate = None
        self.pending = (_DEAL, (), game.first_draw)
        self.history_key = "0"

    def current_player(self):
        if self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        p = self.kstate.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def chance_outcomes(self):
        """``[(i, 1/n) for i in range(n)]``: the next bounded draw of the engine, exactly
        uniform (``kz_bounded``); a shuffle of ``m`` cards is ``m - 1`` of them, a die one
        of 6 (see the module docstring)."""
        n = self.pending[2]
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player):
        if self.pending is not None or player != self.kstate.current_player():
            return []
        return self.kstate.legal_actions()

    def _resolve(self, step, outcomes):
        tape = Tape(outcomes)
        if step == _DEAL:
            result = new_state_taped(self.get_game().kgame, tape, _WORDS)
        else:
            result = self.kstate.clone()
            apply_taped(result, step, tape, _WORDS)
        if tape.need:
            self.pending = (step, tuple(outcomes), tape.need)
        else:
            self.pending = None
            self.kstate = result

    def _apply_action(self, action):
        action = int(action)
        if self.pending is not None:
            step, outcomes, n = self.pending
            if not 0 <= action < n:
                raise IllegalActionError(f"chance outcome {action} is out of range [0, {n})")
            self._resolve(step, outcomes + (action,))
            return
        p = self.kstate.current_player()
        self._resolve(action, ())
        n, _, digest = self.history_key.partition(" ")
        self.history_key = f"{int(n) + 1} " + hashlib.blake2b(
            f"{digest}|{p}:{action}".encode(), digest_size=12).hexdigest()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action} of {self.pending[2]}" if self.pending else f"draw {action}"
        try:
            return self.kstate.action_to_string(int(action))
        except Exception:
            return str(action)

    def is_terminal(self):
        return self.pending is None and self.kstate.is_terminal()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        return [float(x) for x in self.kstate.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """As the sampled game's: ``determinize(player_id, seed)`` (at a player's node)."""
        u = float(probability_sampler())
        seed = int(u * 2.0 ** 53) ^ (len(self.history()) << 53)
        c = self.clone()
        c.kstate = self.kstate.determinize(int(player_id), seed)
        return c

    def __str__(self):
        if self.kstate is None:
            return f"dealing: {len(self.pending[1])} draws chosen"
        text = str(self.kstate)
        if self.pending is not None:
            text += f"\npending {self.pending[0]}: {len(self.pending[1])} draws chosen"
        return text


class KrazyBot(pyspiel.Bot):
    """One of our bots (``krazy_core.bots``: a ``Bot`` or a ``make_bot`` word such as
    ``"heuristic"`` or ``"ismcts:200"``) as a ``pyspiel.Bot``, for either registration:
    ``step(state)`` plays ``bot.step(state.kstate)`` for the player to act (our bots read
    only what that player may see).  ``player_id`` is kept for pyspiel's bookkeeping.
    Raises ``ConfigError`` for an unknown word; ``step`` at a chance node or a finished game
    raises ``ValueError``.

        >>> import pyspiel
        >>> from krazy_core.envs import openspiel
        >>> _ = openspiel.register()
        >>> game = pyspiel.load_game("python_krazy_kings_chance(players=2)")
        >>> bots = [openspiel.KrazyBot(game, 0, "heuristic", seed=1),
        ...         openspiel.KrazyBot(game, 1, "random", seed=2)]
        >>> returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
        >>> sorted(returns)
        [0.0, 1.0]
    """

    def __init__(self, game, player_id, bot="heuristic", *, seed=None):
        super().__init__()
        self.player_id = player_id
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot

    def step(self, state):
        kstate = getattr(state, "kstate", None)
        if kstate is None or state.is_chance_node() or state.is_terminal():
            raise ValueError("KrazyBot.step needs a krazy_core pyspiel state at a player's turn")
        return int(self.bot.step(kstate))

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


def register():
    """Register every game with pyspiel, both ways: ``python_<game>`` (sampled chance) and
    ``python_<game>_chance`` (explicit chance).  Idempotent; returns the short names."""
    names = set(pyspiel.registered_names())
    for game_id, name in SHORT_NAMES.items():
        if name in names:
            continue
        # a class per game (not a closure): pyspiel keeps the creator until the interpreter
        # exits, and releasing a closure then aborts the process
        base = "".join(w.capitalize() for w in game_id.split("-"))
        cls = type(base + "SpielGame", (KrazySpielGame,), {"GAME_ID": game_id, "__module__": __name__})
        _CLASSES[game_id] = cls
        globals()[cls.__name__] = cls
        pyspiel.register_game(_game_type(game_id), cls)
        ccls = type(base + "ChanceGame", (KrazyChanceGame,), {"GAME_ID": game_id, "__module__": __name__})
        _CLASSES[game_id + "/chance"] = ccls
        globals()[ccls.__name__] = ccls
        pyspiel.register_game(_chance_game_type(game_id), ccls)
    return list(SHORT_NAMES.values()) + list(CHANCE_NAMES.values())
