"""Backends that play batches of games: in this process, in local processes, or on Ray.

Work is cut into **batches** (a contiguous range of game indices of one job), never a task
per game.  A batch is a pure function of its job and its range — every game's deal and
every bot's seed come from the job's seed and the game's index — so the same job gives the
same results on every backend, whatever the number of workers or the order batches finish.

The driver pulls batches lazily from an iterator and keeps at most ``max_pending`` of them
submitted or finished-but-not-yet-delivered, so ``--games 100000000`` costs no more memory
than ``--games 1000``.  Results are delivered **in batch order** (a batch that finishes early
waits for the ones before it), so everything computed from them (sums, ratings, a
sequential test's stopping point) is the same on every backend.

A worker that dies in the middle of a batch (killed, out of memory) loses nothing: its
batch's games were never delivered, and the batch runs again from its start (local pool:
the pool is rebuilt and the unfinished batches resubmitted; Ray: the task is retried).  A
batch is delivered once; a store (:mod:`krazy_core.runs.store`) keeps each batch's games under
their indices, so nothing is counted twice.

Use::

    r = make_runner(workers=2)                     # local processes
    r = make_runner(workers=2, ray=True)           # Ray: RAY_ADDRESS, or a local cluster
    for batch, result in r.run(batches, on_batch=None): ...

``batches`` yields ``(key, payload)``; ``payload`` goes to :func:`run_payload` in a worker.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections import deque
from typing import Any, Dict, Iterable, Iterator, Optional, Tuple

from krazy_core.errors import ConfigError, KrazyError

__all__ = ["Runner", "InlineRunner", "LocalRunner", "RayRunner", "make_runner", "run_payload",
           "WorkerLostError", "ray_wanted", "ray_init"]

MAX_WORKERS = 256            # more processes than this is a typo
MAX_RETRIES = 3              # a batch whose worker dies this many times is an error


class WorkerLostError(KrazyError, RuntimeError):
    """A batch's worker died ``MAX_RETRIES + 1`` times (the batch itself kills it)."""


def run_payload(payload: Dict[str, Any]):
    """Run one batch in a worker: ``payload["play"]`` is the module-level function that plays
    it, ``play(payload, hook)`` (:func:`krazy_core.runs.jobs.play_batch` for games,
    :func:`krazy_core.runs.selfplay.play_batch` for self-play; pickled by reference).
    ``payload["fault"]``, a test hook, names a file: if it does not exist yet, the worker
    creates it after half the batch and kills itself with SIGKILL (a worker lost in the
    middle of a batch).  Raises ``ConfigError`` when ``payload["play"]`` is not callable."""
    play_batch = payload.get("play")
    if not callable(play_batch):
        raise ConfigError(f"a batch's payload names no play function, got {play_batch!r}")
    fault = payload.get("fault")
    hook = None
    if fault:
        def hook(done, total):
            if done * 2 >= total and not os.path.exists(fault):
                with open(fault, "w") as f:
                    f.write(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)
    return play_batch(payload, hook)


class Runner:
    """Base: ``run(batches)`` yields ``(key, result)`` in the order ``batches`` gave them.

    ``max_pending`` bounds the batches taken from the iterator and not yet yielded;
    ``peak_pending`` and ``pulled`` record what a run did (for tests and benches);
    ``retries`` counts batches run again after their worker died."""

    name = "base"
    workers = 1

    def __init__(self, max_pending: Optional[int] = None):
        self.max_pending = max_pending or max(2, 3 * self.workers)
        self.peak_pending = 0
        self.pulled = 0
        self.retries = 0

    def describe(self) -> str:
        return self.name

    def run(self, batches: Iterable[Tuple[Any, Dict]]) -> Iterator[Tuple[Any, Any]]:
        raise NotImplementedError

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class InlineRunner(Runner):
    """Every batch in this process, one after another (``workers=1``: no pickling, so a
    caller may watch the games as they are played)."""

    name = "in-process"

    def run(self, batches):
        for key, payload in batches:
            self.pulled += 1
            self.peak_pending = max(self.peak_pending, 1)
            yield key, run_payload(payload)


class _Ordered:
    """The bookkeeping both pools share: pending keys in submission order, finished
    results waiting for the ones before them."""

    def __init__(self):
        self.order: deque = deque()      # keys in submission order, not yet yielded
        self.done: Dict[Any, Any] = {}

    def ready(self):
        while self.order and self.order[0] in self.done:
            key = self.order.popleft()
            yield key, self.done.pop(key)


class LocalRunner(Runner):
    """``workers`` local processes (``spawn``, so nothing of the parent's state leaks in).
    A worker that dies breaks the pool: the pool is rebuilt and every unfinished batch is
    submitted again (``retries`` counts them)."""

    name = "local processes"

    def __init__(self, workers: int = 2, max_pending: Optional[int] = None):
        self.workers = workers
        super().__init__(max_pending)
        self._pool = None

    def describe(self):
        return f"{self.workers} local processes"

    def _new_pool(self):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor
        self._pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context("spawn"))

    def close(self):
        if self._pool is not None:
            pool, self._pool = self._pool, None
            procs = list(getattr(pool, "_processes", {}).values() or [])
            pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:                  # a long batch would otherwise run on
                if p.is_alive():
                    p.terminate()
            for p in procs:
                p.join(5)

    def run(self, batches):
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool
        it = iter(batches)
        book = _Ordered()
        payloads: Dict[Any, Dict] = {}
        futures: Dict[Any, Any] = {}         # future -> key
        tries: Dict[Any, int] = {}
        exhausted = False
        if self._pool is None:
            self._new_pool()
        try:
            while True:
                while not exhausted and len(book.order) < self.max_pending:
                    try:
                        key, payload = next(it)
                    except StopIteration:
                        exhausted = True
                        break
                    self.pulled += 1
                    book.order.append(key)
                    payloads[key] = payload
                    futures[self._pool.submit(run_payload, payload)] = key
                    self.peak_pending = max(self.peak_pending, len(book.order))
                if not futures:
                    yield from book.ready()
                    if exhausted and not book.order:
                        return
                    continue
                finished, _ = wait(list(futures), return_when=FIRST_COMPLETED)
                broken = False
                for f in finished:
                    key = futures.pop(f)
                    try:
                        book.done[key] = f.result()
                        del payloads[key]
                    except BrokenProcessPool:
                        broken = True
                if broken:
                    # the pool is gone with the batches in it: keep what finished, rebuild,
                    # and submit the unfinished batches again from their start
                    for f, key in list(futures.items()):
                        if f.done() and not f.cancelled() and f.exception() is None:
                            book.done[key] = f.result()
                            del payloads[key]
                    lost = [k for k in book.order if k not in book.done]
                    for k in lost:
                        tries[k] = tries.get(k, 0) + 1
                        if tries[k] > MAX_RETRIES:
                            raise WorkerLostError(f"a worker died {tries[k]} times running batch {k!r}; "
                                                  "giving up (the batches before it are kept)")
                    self.retries += len(lost)
                    self.close()
                    self._new_pool()
                    futures = {self._pool.submit(run_payload, payloads[k]): k for k in lost}
                yield from book.ready()
        finally:
            self.close()


def ray_wanted(flag: bool) -> bool:
    """``--ray`` given, or ``RAY_ADDRESS`` set in the environment."""
    return bool(flag) or bool(os.environ.get("RAY_ADDRESS"))


def _check_reachable(address: str, timeout: float = 5.0):
    """Fail fast with a clear ``ConfigError`` if ``address`` (``host:port`` or
    ``ray://host:port``) takes no TCP connection: Ray itself retries for ~20 s and then
    prints a page of warnings."""
    if address in ("auto", "local"):
        return
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"RAY_ADDRESS {address!r} is not host:port (or ray://host:port, auto)")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ConfigError(f"the Ray cluster at {address!r} is unreachable ({e.strerror or e}); "
                          "start it with `ray start --head` there, fix RAY_ADDRESS, or unset it "
                          "to run on local processes") from None


class RayRunner(Runner):
    """Batches as Ray tasks (``ray.remote(max_retries=3)``: Ray runs a batch again when its
    worker dies).  Joins the cluster at ``address`` (default ``RAY_ADDRESS``), or the one
    this process already joined, else starts a local one with ``num_cpus=workers``.
    ``workers`` defaults to the cluster's CPUs.  Raises ``ConfigError`` when Ray is not
    installed (``pip install 'krazy_core[ray]'``) or the address takes no connection."""

    name = "ray"

    def __init__(self, workers: Optional[int] = None, address: Optional[str] = None,
                 max_pending: Optional[int] = None):
        try:
            import ray
        except ImportError:
            raise ConfigError("--ray needs Ray: pip install 'krazy_core[ray]'") from None
        self._ray = ray
        self._owns = False
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            ray_init(address=address, num_cpus=None if address else (workers or os.cpu_count() or 1))
            self._owns = True
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        super().__init__(max_pending)
        self._task = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(run_payload)
        self._refs: Dict[Any, Any] = {}

    def describe(self):
        return f"Ray, {self.workers} workers"

    def close(self):
        for ref in list(self._refs):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:               # already finished or gone
                pass
        self._refs.clear()

    def shutdown(self):
        """Leave the cluster if this runner joined or started it."""
        self.close()
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
            self._owns = False

    def run(self, batches):
        ray = self._ray
        it = iter(batches)
        book = _Ordered()
        exhausted = False
        try:
            while True:
                while not exhausted and len(book.order) < self.max_pending:
                    try:
                        key, payload = next(it)
                    except StopIteration:
                        exhausted = True
                        break
                    self.pulled += 1
                    book.order.append(key)
                    self._refs[self._task.remote(payload)] = key
                    self.peak_pending = max(self.peak_pending, len(book.order))
                if not self._refs:
                    yield from book.ready()
                    if exhausted and not book.order:
                        return
                    continue
                finished, _ = ray.wait(list(self._refs), num_returns=1)
                for ref in finished:
                    key = self._refs.pop(ref)
                    try:
                        book.done[key] = ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        cause = getattr(e, "cause", None)
                        if isinstance(cause, BaseException):
                            raise cause from None
                        raise
                    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as e:
                        raise WorkerLostError(f"batch {key!r} lost its worker {MAX_RETRIES + 1} times: "
                                              f"{type(e).__name__}") from None
                yield from book.ready()
        finally:
            self.close()


def ray_init(address: Optional[str] = None, num_cpus: Optional[int] = None, **kwargs):
    """``ray.init`` as the runners want it: join ``address`` (checked first: a clear
    ``ConfigError`` when unreachable) or start a local cluster of ``num_cpus``, with this
    ``krazy_core`` on the workers' ``PYTHONPATH``, no dashboard, worker logs kept off the
    terminal.  Tests start their session's cluster with it."""
    import logging
    import ray
    env = {"env_vars": {"PYTHONPATH": _package_root()}}
    kwargs.setdefault("logging_level", logging.ERROR)      # keep Ray's start-up lines off the table
    if address:
        _check_reachable(address)
        try:
            with _away_from_a_checkout():
                return ray.init(address=address, runtime_env=env, log_to_driver=False, **kwargs)
        except ConnectionError as e:
            raise ConfigError(f"could not join the Ray cluster at {address!r}: {e}") from None
    with _away_from_a_checkout():
        return ray.init(num_cpus=num_cpus, runtime_env=env, include_dashboard=False,
                        log_to_driver=False, **kwargs)


@contextlib.contextmanager
def _away_from_a_checkout():
    """``ray.init`` puts the driver's current folder on every worker's ``sys.path``, ahead of
    site-packages: run from a source checkout, the workers would import its unbuilt
    ``krazy_core/`` instead of the installed build.  While Ray starts, the current folder is
    the one holding this ``krazy_core``; elsewhere nothing changes."""
    cwd = os.getcwd()
    mine = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if (os.path.realpath(cwd) == os.path.realpath(mine)
            or not os.path.isdir(os.path.join(cwd, "krazy_core"))):
        yield
        return
    os.chdir(mine)
    try:
        yield
    finally:
        os.chdir(cwd)


def _package_root() -> str:
    """The folder holding this ``krazy_core`` (workers of a local cluster import the same
    build; a real cluster needs krazy_core installed on every node)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    old = os.environ.get("PYTHONPATH")
    return here + (os.pathsep + old if old else "")


def make_runner(workers: int = 1, ray: bool = False, address: Optional[str] = None,
                max_pending: Optional[int] = None) -> Runner:
    """The backend for ``workers`` and ``--ray``: Ray when asked or when ``RAY_ADDRESS`` is
    set, else local processes for ``workers > 1``, else this process.  Raises
    ``ConfigError`` for ``workers`` outside 1..256."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be 1..{MAX_WORKERS}, got {workers!r}")
    if ray_wanted(ray) or address:
        return RayRunner(workers if workers > 1 else None, address=address, max_pending=max_pending)
    if workers > 1:
        return LocalRunner(workers, max_pending=max_pending)
    return InlineRunner(max_pending)
