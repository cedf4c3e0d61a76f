"""A results store in SQLite (the standard library): every finished batch of games is
written in one transaction, so an interrupted run keeps all it finished and resumes where it
stopped, and a batch that runs twice (its worker died) is stored once.

Tables (``sqlite3 FILE .schema``)::

    jobs(job_id TEXT PRIMARY KEY,   -- sha1 of the job's spec: the same command => the same job
         kind TEXT,                 -- "simulate", "tournament", "sprt"
         spec TEXT,                 -- the spec as JSON (game, players, options, bots, seed, ...)
         batch_size INTEGER,        -- games per batch, fixed when the job was created
         created REAL)              -- Unix time
    batches(job_id, batch INTEGER, PRIMARY KEY (job_id, batch))   -- batches finished
    games(job_id, idx INTEGER,      -- the game's index in the job's schedule
          batch INTEGER,
          returns TEXT,             -- JSON list, one return per seat
          decisions INTEGER, turns INTEGER NULL, turn_limit INTEGER,
          PRIMARY KEY (job_id, idx))

Who sat where is not stored: it is a function of the spec and ``idx`` (the schedule).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from krazy_core.errors import ConfigError, KrazyError

__all__ = ["Store", "StoreError", "job_id_of", "GameRecord", "open_store"]

# (idx, returns per seat, decisions, turns or None, turn_limit)
GameRecord = Tuple[int, List[float], int, Optional[int], bool]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs(job_id TEXT PRIMARY KEY, kind TEXT NOT NULL, spec TEXT NOT NULL,
                                batch_size INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS batches(job_id TEXT NOT NULL, batch INTEGER NOT NULL,
                                   PRIMARY KEY (job_id, batch));
CREATE TABLE IF NOT EXISTS games(job_id TEXT NOT NULL, idx INTEGER NOT NULL, batch INTEGER NOT NULL,
                                 returns TEXT NOT NULL, decisions INTEGER NOT NULL,
                                 turns INTEGER, turn_limit INTEGER NOT NULL,
                                 PRIMARY KEY (job_id, idx));
"""


class StoreError(KrazyError, OSError):
    """The store cannot be opened or written (a full disk, a read-only file, not a
    database).  What was stored before stays stored."""


def job_id_of(kind: str, spec: Dict) -> str:
    """The job's id: sha1 of ``kind`` and the spec as canonical JSON (16 hex digits)."""
    text = json.dumps([kind, spec], sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


class Store:
    """``Store(path)`` opens (or creates) the SQLite file ``path`` (``":memory:"`` for none).
    Raises ``StoreError`` when it cannot."""

    def __init__(self, path: str):
        self.path = str(path)
        try:
            if self.path != ":memory:":
                folder = os.path.dirname(os.path.abspath(self.path))
                if not os.path.isdir(folder):
                    raise StoreError(f"cannot create the results store {self.path!r}: "
                                     f"{folder!r} is not a folder")
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"cannot use {self.path!r} as the results store: {e}") from None

    def close(self):
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _fail(self, e, what):
        return StoreError(f"could not write {what} to the results store {self.path!r}: {e}. "
                          "Everything stored before is kept; free space (or fix the file) "
                          "and run the same command again to resume")

    def open_job(self, kind: str, spec: Dict, batch_size: int) -> Tuple[str, int]:
        """The job's id and its batch size: the stored one when the job exists (a resumed
        run keeps the batches it started with), else ``batch_size``."""
        jid = job_id_of(kind, spec)
        row = self._db.execute("SELECT batch_size FROM jobs WHERE job_id=?", (jid,)).fetchone()
        if row:
            return jid, int(row[0])
        try:
            with self._db:
                self._db.execute("INSERT INTO jobs VALUES (?,?,?,?,?)",
                                 (jid, kind, json.dumps(spec, sort_keys=True), batch_size, time.time()))
        except sqlite3.Error as e:
            raise self._fail(e, "a new job") from None
        return jid, batch_size

    def done_batches(self, job_id: str) -> set:
        return {b for (b,) in self._db.execute("SELECT batch FROM batches WHERE job_id=?", (job_id,))}

    def add_batch(self, job_id: str, batch: int, records: Sequence[GameRecord]) -> bool:
        """Store a finished batch's games and its marker in one transaction.  Returns
        ``False`` (and stores nothing) when the batch is already stored."""
        try:
            with self._db:
                cur = self._db.execute("INSERT OR IGNORE INTO batches VALUES (?,?)", (job_id, batch))
                if cur.rowcount == 0:
                    return False
                self._db.executemany(
                    "INSERT OR IGNORE INTO games VALUES (?,?,?,?,?,?,?)",
                    [(job_id, idx, batch, json.dumps(ret), dec, turns, int(bool(tl)))
                     for idx, ret, dec, turns, tl in records])
        except sqlite3.Error as e:
            raise self._fail(e, f"batch {batch}") from None
        return True

    def batch_games(self, job_id: str, batch: int) -> List[GameRecord]:
        rows = self._db.execute("SELECT idx, returns, decisions, turns, turn_limit FROM games "
                                "WHERE job_id=? AND batch=? ORDER BY idx", (job_id, batch))
        return [(i, json.loads(r), d, t, bool(tl)) for i, r, d, t, tl in rows]

    def count_games(self, job_id: str) -> int:
        return self._db.execute("SELECT COUNT(*) FROM games WHERE job_id=?", (job_id,)).fetchone()[0]

    def games(self, job_id: str) -> Iterator[GameRecord]:
        """Every stored game of the job, by index."""
        rows = self._db.execute("SELECT idx, returns, decisions, turns, turn_limit FROM games "
                                "WHERE job_id=? ORDER BY idx", (job_id,))
        for i, r, d, t, tl in rows:
            yield (i, json.loads(r), d, t, bool(tl))


def open_store(path: Optional[str]) -> Optional[Store]:
    """``Store(path)``, or ``None`` for no store (``path`` empty or ``None``)."""
    if not path:
        return None
    if os.path.isdir(path):
        raise ConfigError(f"--store {path!r} is a folder; give a file name (e.g. {os.path.join(path, 'krazy.sqlite')})")
    return Store(path)
