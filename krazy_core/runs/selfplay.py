"""Self-play data for training: every decision of bot-vs-itself games as Parquet shards.

``krazy selfplay GAME --bot ismcts:200 --games N --out DIR`` (``pip install
'krazy_core[selfplay]'`` for pyarrow).  Every seat is played by the bot (seeded per game and
seat); each batch of games becomes one shard ``DIR/shard-BBBBBB.parquet``, written to a
temporary file and renamed, so a shard is either whole or absent.  ``DIR/_selfplay.json``
holds the job; a rerun with the same command skips the shards already there (resume), and
another job's folder is refused.

**Schema** (one row per decision, in play order; also in each file's metadata):

=================  ====================================  ==========================================
column             Arrow type                            meaning
=================  ====================================  ==========================================
game               int64                                 the game's index in the job (0 ..)
deal_seed          int64                                 ``game.new_initial_state(seed=deal_seed)``
ply                int32                                 the decision's number in its game (0 ..)
player             int8                                  the seat to act
observation        fixed_size_list<float32>[D]           ``state.observation_tensor(player)``,
                                                         D = ``game.observation_tensor_shape[0]``
mask               fixed_size_list<bool>[A]              ``state.legal_action_mask()``,
                                                         A = ``game.num_distinct_actions``
action             int32                                 the action played
policy_actions     list<int32>                           the legal actions the search scored
policy_visits      list<float32>                         their visit fractions (sum 1): ISMCTS's
                                                         ``step_with_policy``; a one-hot of the
                                                         action for random/heuristic bots
returns            fixed_size_list<float32>[N]           the game's final returns, every seat
                                                         (N players; the target for seat
                                                         ``player`` is ``returns[player]``)
=================  ====================================  ==========================================

File metadata (``pq.read_schema(f).metadata``): ``krazy.game_id``, ``krazy.num_players``,
``krazy.options`` (JSON), ``krazy.bot``, ``krazy.seed``, ``krazy.schema_version`` ("1"),
``krazy.version``.  Read a folder with ``pyarrow.dataset.dataset(DIR)`` or
``pq.read_table(DIR)``.
"""

from __future__ import annotations

import errno
import json
import os
import time
from dataclasses import asdict, dataclass
from typing import List, Optional, Sequence, Union

import numpy as np

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError, KrazyError
from krazy_core.runs.jobs import job_game, make_job
from krazy_core.runs.runner import make_runner

__all__ = ["run_selfplay", "SelfplayResult", "play_batch", "SCHEMA_VERSION", "SelfplayError", "arrow_schema"]

SCHEMA_VERSION = "1"
MANIFEST = "_selfplay.json"      # "_" so pyarrow datasets skip it


class SelfplayError(KrazyError, OSError):
    """A shard could not be written (a full disk, an unwritable folder); the shards written
    before are whole and kept."""


def _pa():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("krazy selfplay needs pyarrow: pip install 'krazy_core[selfplay]'") from None
    return pa, pq


def play_batch(payload: dict, hook=None) -> dict:
    """Play games ``lo .. hi - 1`` of a self-play job; the decisions as numpy columns
    (``observation`` float32 (R, D), ``mask`` bool (R, A), ``policy`` as flat values with
    offsets, ``returns`` float32 (R, N)...)."""
    job = payload["job"]
    game = job_game(job)
    n = game.num_players
    cols: dict[str, list] = {k: [] for k in ("game", "deal_seed", "ply", "player", "action")}
    obs: list = []
    masks: list = []
    rets: list = []
    pa_: list = []
    pv_: list = []
    offsets = [0]
    lo, hi = payload["lo"], payload["hi"]
    for g in range(lo, hi):
        deal = job["seed"] + g
        bots = [make_bot(job["bot"], seed=(job["seed"] * 1_000_003 + g) * 31 + s) for s in range(n)]
        state = game.new_initial_state(seed=deal)
        start = len(cols["game"])
        ply = 0
        while not state.is_terminal():
            p = state.current_player()
            bot = bots[p]
            obs.append(np.asarray(state.observation_tensor(p), dtype=np.float32).ravel())
            masks.append(np.asarray(state.legal_action_mask(), dtype=bool))
            if hasattr(bot, "step_with_policy"):
                action, policy = bot.step_with_policy(state)
            else:
                action = bot.step(state)
                policy = {action: 1.0}
            items = sorted(policy.items())
            pa_.extend(a for a, _ in items)
            pv_.extend(v for _, v in items)
            offsets.append(len(pa_))
            for k, v in (("game", g), ("deal_seed", deal), ("ply", ply), ("player", p), ("action", action)):
                cols[k].append(v)
            state.apply_action(action)
            ply += 1
        ret = [float(x) for x in state.returns()]
        rets.extend([ret] * (len(cols["game"]) - start))
        if hook is not None:
            hook(g - lo + 1, hi - lo)
    d = game.observation_tensor_shape[0] if len(game.observation_tensor_shape) == 1 else int(np.prod(game.observation_tensor_shape))
    a = game.num_distinct_actions
    return {
        "game": np.asarray(cols["game"], dtype=np.int64),
        "deal_seed": np.asarray(cols["deal_seed"], dtype=np.int64),
        "ply": np.asarray(cols["ply"], dtype=np.int32),
        "player": np.asarray(cols["player"], dtype=np.int8),
        "action": np.asarray(cols["action"], dtype=np.int32),
        "observation": np.stack(obs).astype(np.float32) if obs else np.zeros((0, d), np.float32),
        "mask": np.stack(masks) if masks else np.zeros((0, a), bool),
        "policy_offsets": np.asarray(offsets, dtype=np.int32),
        "policy_actions": np.asarray(pa_, dtype=np.int32),
        "policy_visits": np.asarray(pv_, dtype=np.float32),
        "returns": np.asarray(rets, dtype=np.float32).reshape(-1, n),
    }


def arrow_schema(game, metadata: Optional[dict] = None):
    """The shards' Arrow schema for ``game`` (see the module docstring)."""
    pa, _ = _pa()
    d = int(np.prod(game.observation_tensor_shape))
    return pa.schema([
        ("game", pa.int64()), ("deal_seed", pa.int64()), ("ply", pa.int32()), ("player", pa.int8()),
        ("observation", pa.list_(pa.float32(), d)),
        ("mask", pa.list_(pa.bool_(), game.num_distinct_actions)),
        ("action", pa.int32()),
        ("policy_actions", pa.list_(pa.int32())), ("policy_visits", pa.list_(pa.float32())),
        ("returns", pa.list_(pa.float32(), game.num_players)),
    ], metadata=metadata)


def _table(cols: dict, schema):
    pa, _ = _pa()
    d = schema.field("observation").type.list_size
    a = schema.field("mask").type.list_size
    n = schema.field("returns").type.list_size
    off = pa.array(cols["policy_offsets"], pa.int32())
    arrays = [
        pa.array(cols["game"]), pa.array(cols["deal_seed"]), pa.array(cols["ply"]), pa.array(cols["player"]),
        pa.FixedSizeListArray.from_arrays(pa.array(cols["observation"].ravel(), pa.float32()), d),
        pa.FixedSizeListArray.from_arrays(pa.array(cols["mask"].ravel(), pa.bool_()), a),
        pa.array(cols["action"]),
        pa.ListArray.from_arrays(off, pa.array(cols["policy_actions"], pa.int32())),
        pa.ListArray.from_arrays(off, pa.array(cols["policy_visits"], pa.float32())),
        pa.FixedSizeListArray.from_arrays(pa.array(cols["returns"].ravel(), pa.float32()), n),
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def shard_name(b: int) -> str:
    return f"shard-{b:06d}.parquet"


def _write_shard(table, folder: str, b: int, writer=None):
    """Write ``table`` as shard ``b``: to a temporary file, then renamed (whole or absent).
    Raises ``SelfplayError`` on a full disk or another write error, the temporary file
    removed."""
    _, pq = _pa()
    final = os.path.join(folder, shard_name(b))
    tmp = os.path.join(folder, f".{shard_name(b)}.tmp")
    try:
        (writer or pq.write_table)(table, tmp)
        os.replace(tmp, final)
    except OSError as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        why = "the disk is full" if e.errno == errno.ENOSPC else (e.strerror or str(e))
        kept = len([f for f in os.listdir(folder) if f.startswith("shard-")])
        raise SelfplayError(f"could not write {final}: {why}. The {kept} shards already written are "
                            "whole and kept; free space and run the same command again to resume") from None


def prepare_out(folder: str, job: dict, batch_size: int):
    """Make ``folder`` (or check it), write or check its manifest.  Returns ``(the shard
    numbers already there, the batch size)``: a resumed job keeps the games per shard it
    started with.  Raises ``ConfigError`` for a folder that cannot be written or holds
    another job."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ConfigError(f"--out {folder!r} is a file, not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
        probe = os.path.join(folder, ".krazy-write-test")
        with open(probe, "w") as f:
            f.write("ok")
        os.remove(probe)
    except OSError as e:
        raise ConfigError(f"--out {folder!r} cannot be written: {e.strerror or e}") from None
    man = os.path.join(folder, MANIFEST)
    if os.path.exists(man):
        try:
            with open(man) as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            raise ConfigError(f"--out {folder!r}: its {MANIFEST} is unreadable ({e}); use another folder") from None
        if old.get("job") != job:
            raise ConfigError(f"--out {folder!r} holds shards of another self-play job "
                              f"({old.get('job', {}).get('game_id')}, bot {old.get('job', {}).get('bot')}, "
                              f"{old.get('job', {}).get('games')} games); use another folder")
        batch_size = int(old.get("batch_size", batch_size))
    else:
        tmp = man + ".tmp"
        try:
            with open(tmp, "w") as f:
                json.dump({"job": job, "batch_size": batch_size, "schema_version": SCHEMA_VERSION},
                          f, indent=1, sort_keys=True)
            os.replace(tmp, man)
        except OSError as e:
            raise ConfigError(f"--out {folder!r} cannot be written: {e.strerror or e}") from None
    done = set()
    for name in os.listdir(folder):
        if name.startswith("shard-") and name.endswith(".parquet"):
            try:
                done.add(int(name[6:-8]))
            except ValueError:
                pass
    return done, batch_size


@dataclass
class SelfplayResult:
    """What a self-play run wrote: shards written now and ``skipped`` (there before: a
    resumed run), decisions and games played now, wall seconds, the backend."""

    game_id: str
    num_players: int
    bots: List[str]                # the one bot playing every seat
    out: str
    shards: int = 0
    decisions: int = 0
    games: int = 0
    skipped: int = 0
    seconds: float = 0.0
    backend: str = ""

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict:
        """JSON-ready: every field, and ``decisions_per_second``."""
        d = asdict(self)
        d["game"] = d.pop("game_id")
        d["players"] = d.pop("num_players")
        d["decisions_per_second"] = self.decisions_per_second
        return d


def run_selfplay(game, bots: Union[str, Sequence[str]], games: int, *, out: str, seed: int = 0,
                 workers: int = 1, runner=None, batch_size: Optional[int] = None, progress=None,
                 writer=None, fault=None) -> SelfplayResult:
    """Play ``games`` self-play games of one bot (``bots``: its word, or a list of that one
    word) and write them to ``out`` as Parquet shards (see the module docstring); a rerun
    skips the shards already there.  Raises ``ConfigError`` for an unknown bot or more than
    one, ``games < 1``, a bad ``out``; ``SelfplayError`` when a shard cannot be written."""
    words = [bots] if isinstance(bots, str) else list(bots)
    if not all(isinstance(w, str) for w in words) or len({w.strip() for w in words}) != 1:
        raise ConfigError(f"self-play plays one bot in every seat; got {bots!r}")
    bot = words[0]
    _pa()
    make_bot(bot, seed=0)
    job = make_job(game, {"schedule": "selfplay", "bot": bot.strip()}, games, seed)
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                   or not 1 <= batch_size <= 100_000):
        raise ConfigError(f"--batch must be 1..100000 games per shard, got {batch_size!r}")
    w = runner.workers if runner is not None else workers
    size = batch_size or max(1, min(64, games // (8 * max(1, w))))
    done, size = prepare_out(out, job, size)
    meta = {"krazy.game_id": game.game_id, "krazy.num_players": str(game.num_players),
            "krazy.options": json.dumps(game.options_dict(), sort_keys=True), "krazy.bot": bot.strip(),
            "krazy.seed": str(seed), "krazy.schema_version": SCHEMA_VERSION,
            "krazy.version": krazy_core.__version__}
    schema = arrow_schema(game, meta)
    nb = -(-games // size)

    def batches():
        for b in range(nb):
            if b in done:
                continue
            payload = {"play": play_batch, "job": job, "lo": b * size, "hi": min(games, (b + 1) * size)}
            if fault is not None and fault[0] == b:
                payload["fault"] = fault[1]
            yield b, payload

    own = runner is None
    if own:
        runner = make_runner(workers)
    stats = SelfplayResult(game.game_id, game.num_players, [bot.strip()], out,
                           skipped=len([b for b in done if b < nb]))
    t0 = time.perf_counter()
    it = runner.run(batches())
    try:
        for b, cols in it:
            _write_shard(_table(cols, schema), out, b, writer)
            stats.shards += 1
            stats.decisions += len(cols["game"])
            k = min(games, (b + 1) * size) - b * size
            stats.games += k
            if progress:
                progress(k)
    finally:
        it.close()
        if own:
            runner.close()
    stats.seconds = time.perf_counter() - t0
    stats.backend = runner.describe()
    return stats
