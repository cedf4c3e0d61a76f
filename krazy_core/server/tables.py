"""Tables: seats and their tokens, the state, per-seat messages, bots off the event loop.

Everything a seat receives is built by :meth:`Table.message_for` from
``krazy_core.protocol.seat_view`` (its observation, its view of the events, its legal
actions described); a spectator gets :func:`public_view`. Nothing here ever sends
``to_json()``, another seat's observation, the stock or the PRNG state."""
import asyncio
import hashlib
import hmac
import json
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional

import krazy_core
from krazy_core import protocol
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError, IllegalActionError, KrazyError

try:                                   # the server extra's fast JSON encoder (same output)
    import orjson as _orjson
except ImportError:                    # pragma: no cover - orjson is in the server extra
    _orjson = None                     # type: ignore[assignment]


def dumps_bytes(obj) -> bytes:
    """Compact JSON as UTF-8 bytes (orjson when installed, else the json module)."""
    if _orjson is not None:
        return _orjson.dumps(obj)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def dumps(obj) -> str:
    """Compact JSON text of one message."""
    return dumps_bytes(obj).decode()


# observation keys that belong to the seat alone (dropped from the spectators' view)
PRIVATE_KEYS = ("hand", "hand_text", "playable", "legal_actions", "drawn_card", "player")
MAX_THINK = 10.0
BOT_WORDS = ("random", "heuristic", "ismcts")


def fingerprint(state) -> str:
    """16 hex digits of SHA-256 over the game state (checked when a log is replayed): the
    ``"state"`` part of ``to_json()`` (hands, stock, piles, PRNG state...), without the event
    log and history that ``to_json()`` adds, which follow from the seed and the actions anyway
    and made a fingerprint cost O(actions so far) -- 3-4 ms late in a game, the largest cost
    of an action on the server (benches/README.md, "Game server load")."""
    return hashlib.sha256(dumps_bytes(state._to_dict())).hexdigest()[:16]


def public_view(state) -> Dict[str, Any]:
    """What a spectator may see: seat 0's observation less every key of ``PRIVATE_KEYS``
    (no hand, no hand order, no drawn card)."""
    obs = state.observation(0)
    return {k: v for k, v in obs.items() if k not in PRIVATE_KEYS}


def check_bot(word: str) -> str:
    """``random`` | ``heuristic`` | ``ismcts`` | ``ismcts:N`` (N iterations, 1..20000).
    Raises ``ConfigError``."""
    if not isinstance(word, str) or len(word) > 20:
        raise ConfigError("bot must be random, heuristic, ismcts or ismcts:ITERATIONS")
    w = word.strip().lower()
    if w in ("random", "heuristic", "ismcts"):
        return w
    if w.startswith("ismcts:") and w[7:].isdigit() and 1 <= int(w[7:]) <= 20000:
        return w
    raise ConfigError(f"bad bot {word!r}: random, heuristic, ismcts or ismcts:ITERATIONS (1..20000)")


class Table:
    def __init__(self, tid: str, game_id: str, num_players: int, options: Dict[str, Any], seed: int,
                 seats: List[Dict[str, Any]], think: float):
        self.id = tid
        self.game = krazy_core.make(game_id, num_players=num_players, **options)
        self.options = options
        self.seed = seed
        self.seats = seats                   # [{"kind", "bot", "name", "token"}]
        self.think = think
        self.state = self.game.new_initial_state(seed=seed)
        self.log: List[tuple] = []           # (seat, action, fingerprint)
        self.conns: set = set()              # connections watching this table (join/leave)
        self._seat_info: Optional[List[Dict[str, Any]]] = None
        self.bot_task: Optional[asyncio.Task] = None
        self._bots: Dict[int, Any] = {}

    # ---------------------------------------------------------------- info
    @property
    def version(self) -> int:
        """The number of actions applied: what an action must answer."""
        return len(self.log)

    def record(self) -> Dict[str, Any]:
        return {"id": self.id, "game": self.game.game_id, "num_players": self.game.num_players,
                "options": self.options, "seed": self.seed, "seats": self.seats, "think": self.think}

    def seat_info(self) -> List[Dict[str, Any]]:
        """Who sits where and who is connected (built again only after a join or a leave:
        every update carries it)."""
        if self._seat_info is None:
            conn = {c.seat for c in self.conns if c.seat is not None}
            self._seat_info = [{"seat": i, "kind": s["kind"], "bot": s.get("bot"), "name": s["name"],
                                "connected": s["kind"] == "bot" or i in conn}
                               for i, s in enumerate(self.seats)]
        return self._seat_info

    def join(self, conn) -> None:
        """A connection starts watching this table."""
        self.conns.add(conn)
        self._seat_info = None

    def leave(self, conn) -> None:
        """A connection stops watching this table (closed or dropped)."""
        self.conns.discard(conn)
        self._seat_info = None

    def public(self) -> Dict[str, Any]:
        return {"table": self.id, "game": self.game.game_id, "num_players": self.game.num_players,
                "version": self.version, "terminal": self.state.is_terminal(),
                "to_move": self.state.current_player(), "seats": self.seat_info(),
                "options": self.options}

    def seat_of_token(self, token: Optional[str]) -> Optional[int]:
        """The seat whose secret ``token`` is; ``None`` when it is nobody's."""
        if not isinstance(token, str) or not token:
            return None
        for i, s in enumerate(self.seats):
            t = s.get("token")
            if t and hmac.compare_digest(t.encode(), token.encode()):
                return i
        return None

    # ---------------------------------------------------------------- messages
    def message_for(self, seat: Optional[int], first_event: int = 0) -> Dict[str, Any]:
        """The ``update`` message of one seat (``None``: a spectator): schemas/protocol.json."""
        s = self.state
        if seat is None:
            obs = public_view(s)
            evs = s.events_for(None, since=first_event)
            acts = []
        else:
            v = protocol.seat_view(s, seat, first_event)
            obs, evs, acts = v["observation"], v["events"], v["actions"]
        return {"type": "update", "table": self.id, "version": self.version, "seat": seat,
                "observation": obs, "events": evs, "first_event": first_event, "actions": acts,
                "to_move": s.current_player(), "terminal": s.is_terminal(),
                "returns": s.returns() if s.is_terminal() else None, "seats": self.seat_info()}

    def hello_for(self, seat: Optional[int]) -> Dict[str, Any]:
        return {"type": "hello", "table": self.id, "game": self.game.game_id, "seat": seat,
                "num_players": self.game.num_players, "seats": self.seat_info()}

    # ---------------------------------------------------------------- moves
    def apply(self, seat: int, action: int) -> tuple:
        """Apply ``action`` for ``seat``: raises ``IllegalActionError`` (state unchanged) when
        it is not that seat's turn or not legal. Returns the log row to persist."""
        if self.state.is_terminal():
            raise IllegalActionError("the game is over")
        if self.state.current_player() != seat:
            raise IllegalActionError(f"it is seat {self.state.current_player() + 1}'s turn, not seat "
                                     f"{seat + 1}'s (seats from 1)")
        self.state.apply_action(int(action))
        row = (seat, int(action), fingerprint(self.state))
        self.log.append(row)
        return row

    def replay(self, log: List[tuple]) -> None:
        """Rebuild from the seed and ``log``; raises ``KrazyError`` when an action is illegal
        or a fingerprint differs (the log does not belong to this deal)."""
        for n, (seat, action, fp) in enumerate(log):
            try:
                self.apply(seat, action)
            except KrazyError as e:
                raise KrazyError(f"table {self.id}: action {n} does not replay: {e}") from None
            if self.log[-1][2] != fp:
                raise KrazyError(f"table {self.id}: state after action {n} differs from the stored one")

    def laydown_plan(self, seat: int, melds: List[List[int]]) -> List[int]:
        """Crazy Rummy (CR-10): the actions that go down with exactly these whole melds
        (each a list of card codes), found by a search over clones of the state. Raises
        ``IllegalActionError`` when no order of moves lays them."""
        s = self.state
        if s.game.game_id != "contract-rummy":
            raise IllegalActionError("whole-meld lay-downs are a Crazy Rummy move")
        if s.current_player() != seat:
            raise IllegalActionError("it is not your turn")
        if not (isinstance(melds, list) and 1 <= len(melds) <= 3 and
                all(isinstance(m, list) and 1 <= len(m) <= 20 and
                    all(type(c) is int and 0 <= c < 256 for c in m) for m in melds)):
            n = len(melds) if isinstance(melds, list) else 0
            raise IllegalActionError("a lay-down is 1 to 3 melds, the round's contract (CR-4)" if n > 3 else
                                     "melds must be 1 to 3 lists of card codes")
        targets = [sorted(m) for m in melds]
        start = s.clone()
        go = [a for a in start.legal_actions() if start.action_to_string(a) == "go down"]
        if not go:
            raise IllegalActionError("you cannot go down now (CR-10: draw first; one contract per round)")
        start.apply_action(go[0])
        budget = [4000]

        def mine(st):
            return sorted(sorted(m["cards"]) for m in st.observation(seat)["melds"] if m["owner"] == seat)

        def ok_partial(st):
            # each meld laid so far is part of a different target: a matching, not the first
            # fit (a run started empty fitted the first target, the book, so a book then a
            # run was refused while a run then a book went down -- a fresh user's find)
            have = [m for m in mine(st) if m]
            if len(have) > len(targets):
                return False

            def match(i, used):
                if i == len(have):
                    return True
                return any(j not in used and _submultiset(have[i], targets[j]) and match(i + 1, used | {j})
                           for j in range(len(targets)))
            return match(0, frozenset())

        def dfs(st, path):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            obs = st.observation(seat)
            if obs["phase"] != "going_down" or st.current_player() != seat:
                return path if mine(st) == sorted(targets) else None
            for a in st.legal_actions():
                c = st.clone()
                c.apply_action(a)
                if ok_partial(c):
                    r = dfs(c, path + [a])
                    if r is not None:
                        return r
            return None

        plan = dfs(start, [go[0]])
        if plan is None:
            raise IllegalActionError(_laydown_refusal(s, seat, melds))
        return plan

    def bot_seat(self) -> Optional[int]:
        p = self.state.current_player()
        if self.state.is_terminal() or p < 0 or self.seats[p]["kind"] != "bot":
            return None
        return p

    def bot_move(self, seat: int, state) -> int:
        """Runs in a worker thread: the bot's move on a clone (the search releases the GIL)."""
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(self.seats[seat]["bot"], seed=self.seed * 8 + seat)
        return bot.step(state)


def _submultiset(a, b):
    b = list(b)
    for x in a:
        if x in b:
            b.remove(x)
        else:
            return False
    return True


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def build_table(req: Dict[str, Any], seed: Optional[int] = None) -> Table:
    """A new table from a lobby request ``{"game", "seats": [{"kind": "human"|"bot",
    "bot": word, "name"}], "options": {}, "seed"?, "think"?}``. Raises ``ConfigError``."""
    if not isinstance(req, dict):
        raise ConfigError("the request must be a JSON object")
    game_id = req.get("game")
    if game_id not in krazy_core.available_games():
        raise ConfigError(f"game must be one of {', '.join(krazy_core.available_games())}")
    seats_in = req.get("seats")
    if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 8:
        raise ConfigError("seats must be a list of 2..8 seats")
    options = req.get("options") or {}
    if not isinstance(options, dict) or len(options) > 20:
        raise ConfigError("options must be an object")
    options = {str(k): v for k, v in options.items() if k != "num_players"}
    krazy_core.make(game_id, num_players=len(seats_in), **options)   # ConfigError when bad
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ConfigError(f"seats[{i}] (seat {i + 1}): kind must be human or bot")
        name = s.get("name") or (f"Player {i + 1}" if s["kind"] == "human" else f"Bot {i + 1}")
        if not isinstance(name, str) or len(name) > 40:
            raise ConfigError(f"seats[{i}] (seat {i + 1}): name must be a string of at most 40 characters")
        if s["kind"] == "bot":
            seats.append({"kind": "bot", "bot": check_bot(s.get("bot", "heuristic")), "name": name,
                          "token": None})
        else:
            seats.append({"kind": "human", "bot": None, "name": name, "token": new_token()})
    think = req.get("think", 0.6)
    if type(think) not in (int, float) or not 0 <= think <= MAX_THINK:
        raise ConfigError(f"think must be 0..{MAX_THINK} seconds")
    if seed is None:
        seed = req.get("seed")
    if seed is None:
        seed = secrets.randbits(48)
    if type(seed) is not int or not 0 <= seed < 2 ** 63:
        raise ConfigError("seed must be an int in [0, 2**63)")
    return Table(new_table_id(), game_id, len(seats), options, seed, seats, float(think))


BOT_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="krazy-bot")


def _laydown_refusal(state, seat: int, melds: List[List[int]]) -> str:
    """Why these whole melds cannot go down, as the terminal says it: a card not in the hand,
    a group that is no meld (CR-5), or melds that are not the round's contract (CR-4) -- the
    browser showed one sentence for all of them."""
    from collections import Counter
    from krazy_core.cards import format_card
    from krazy_core.games.contract_rummy.view import contract_words, meld_problem
    obs = state.observation(seat)
    short = Counter(c for m in melds for c in m) - Counter(obs["hand"])
    if short:
        return ("you do not hold " + " ".join(format_card(c) for c in sorted(short.elements()))
                + " (a card can be in one meld only)")
    for m in melds:
        why = meld_problem(m, bool(state.game.options.ace_wrap))
        if why is not None:
            return why
    want = contract_words(obs["contract"])
    return (f"those melds are not round {obs['round']}'s contract, {want}, each a separate meld "
            f"(CR-4; you chose {len(melds)} meld{'s' if len(melds) != 1 else ''})")

