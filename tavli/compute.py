"""Where long jobs run: in this process, in local worker processes, or on a Ray cluster.

Labelling, the strength matches and the rollouts are jobs over tasks that carry
everything they depend on (a chunk's index and seed, a range of dice pairs, a range of
trials): a task's result is the same wherever it runs, so a job gives the same
output in one process, in ``jobs`` processes or on a cluster. :class:`Compute` says where
(one value, passed as gnubg passes its ``evalcontext``); :func:`open_pool` starts the
workers, each of which builds its state once (``setup(*args)``: an evaluator, its work
arrays) and then runs tasks (``work(state, task)``).

- ``Compute()``: this process, no worker (nothing to start, nothing to pickle).
- ``Compute(jobs=4)``: four local processes, forked from this one where that is safe
  (POSIX, one thread: they start with the compiled code loaded), else spawned.
- ``Compute(ray=True, jobs=4)``: a local Ray instance of four workers;
  ``Compute(ray_address="host:6379")`` joins a running cluster (``ray start --head`` on
  one machine, ``ray start --address ...`` on the others; tavli installed on each), one
  worker per CPU of the cluster unless ``jobs`` says fewer. Ray is an optional extra
  (``pip install 'tavli[ray]'``); without it nothing else changes.

>>> c = Compute(jobs=2)
>>> c.describe(), Compute().describe()
('2 local processes', 'this process')
>>> pool = open_pool(Compute(), _square_setup, (10,))
>>> list(pool.map(_square_work, [1, 2, 3], ordered=True))
[11, 14, 19]
"""

from __future__ import annotations

import copy
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tavli.errors import OptionError

RAY_EXTRA = "--ray needs Ray, an optional extra: pip install 'tavli[ray]'"


@dataclass(frozen=True)
class Compute:
    """Where a job's tasks run: ``jobs`` workers (1: this process, unless ``ray``), in
    local processes or, with ``ray`` or a ``ray_address``, as Ray actors (a local
    instance, or the cluster at that address)."""

    jobs: int | None = 1
    ray: bool = False
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.jobs is not None and (isinstance(self.jobs, bool)
                                      or not isinstance(self.jobs, int) or self.jobs < 1):
            raise OptionError(f"jobs must be at least 1, not {self.jobs!r}")
        if self.ray_address is not None and not str(self.ray_address).strip():
            raise OptionError("--ray-address needs an address (host:port, or 'auto')")

    @property
    def uses_ray(self) -> bool:
        return self.ray or self.ray_address is not None

    @property
    def local_processes(self) -> int:
        """The local worker processes (0: this process does the work, or Ray does)."""
        if self.uses_ray:
            return 0
        n = self.jobs if self.jobs is not None else (os.cpu_count() or 1)
        return n if n > 1 else 0

    @property
    def here(self) -> bool:
        """Whether the work runs in this process (no worker to start)."""
        return not self.uses_ray and self.local_processes == 0

    def check(self) -> Compute:
        """Refuse at once what cannot run: Ray asked for and not installed, a cluster
        address nothing answers at. Returns itself."""
        if self.uses_ray:
            _ray()
        if self.ray_address is not None:
            _check_reachable(self.ray_address)
        return self

    def describe(self) -> str:
        """Where the work runs, in words (the logs print it)."""
        if self.ray_address is not None:
            return f"the Ray cluster at {self.ray_address}"
        if self.ray:
            return f"a local Ray instance of {self.jobs or os.cpu_count() or 1} workers"
        n = self.local_processes
        return f"{n} local processes" if n else "this process"


#: this process, no worker: the default of every job
HERE = Compute()


def as_compute(value: Compute | int | None, default: int | None = 1) -> Compute:
    """``value`` as a :class:`Compute`: itself, a number of local processes, or None for
    ``default`` processes (None: one per core).

    >>> as_compute(3).jobs, as_compute(None, None).local_processes == (os.cpu_count() or 1)
    (3, True)
    """
    if isinstance(value, Compute):
        return value
    return Compute(jobs=default if value is None else value)


# --- the pools ---------------------------------------------------------------------------

Setup = Callable[..., Any]
Work = Callable[[Any, Any], Any]


class Pool:
    """Workers that run ``work(state, task)`` on tasks; each builds ``state`` once."""

    workers = 1

    def submit(self, work: Work, task: Any) -> Any:
        """Start a task; returns a handle for :meth:`result`."""
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        """The result of a submitted task (waits for it)."""
        raise NotImplementedError

    def map(self, work: Work, tasks: Iterable[Any], ordered: bool = False) -> Iterator[Any]:
        """The results of ``tasks``, in their order or (default) as they finish; at most
        two tasks a worker are under way at once."""
        todo = deque(tasks)
        pending: deque = deque()
        while todo or pending:
            while todo and len(pending) < 2 * self.workers:
                pending.append(self.submit(work, todo.popleft()))
            if ordered:
                yield self.result(pending.popleft())
            else:
                yield self.result(self._first_done(pending))

    def _first_done(self, pending: deque) -> Any:
        return pending.popleft()

    def close(self) -> None:
        """Stop the workers."""

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class InProcess(Pool):
    """This process: the state built here, the tasks run one after another."""

    def __init__(self, setup: Setup, args: tuple) -> None:
        self.state = setup(*args)

    def submit(self, work: Work, task: Any) -> Any:
        return work(self.state, task)

    def result(self, handle: Any) -> Any:
        return handle


_STATE: dict[str, Any] = {}


def _process_init(setup: Setup, args: tuple) -> None:
    _STATE["state"] = setup(*args)


def _process_run(work: Work, task: Any) -> Any:
    return work(_STATE["state"], task)


def start_method() -> str:
    """How local workers start: forked on POSIX when this process runs no other thread
    (they inherit the loaded kernels and data), else spawned (forking a process with
    threads may copy a lock that some thread holds)."""
    import multiprocessing as mp

    if threading.active_count() == 1 and "fork" in mp.get_all_start_methods():
        return "fork"
    return "spawn"


class Processes(Pool):
    """``n`` local worker processes."""

    def __init__(self, n: int, setup: Setup, args: tuple) -> None:
        import multiprocessing as mp

        self.workers = n
        self._pool = mp.get_context(start_method()).Pool(n, _process_init, (setup, args))

    def submit(self, work: Work, task: Any) -> Any:
        return self._pool.apply_async(_process_run, (work, task))

    def result(self, handle: Any) -> Any:
        return handle.get()

    def _first_done(self, pending: deque) -> Any:
        while True:
            for h in pending:
                if h.ready():
                    pending.remove(h)
                    return h
            pending[0].wait(0.05)

    def close(self) -> None:
        self._pool.terminate()
        self._pool.join()


def _ray():
    try:
        import ray
    except ImportError:
        raise OptionError(RAY_EXTRA) from None
    return ray


#: seconds to wait for a Ray cluster's address to answer (Ray itself retries for minutes)
REACH_TIMEOUT = 5.0


def _check_reachable(address: str) -> None:
    """Refuse at once a cluster address nothing answers at (``host:port``, or
    ``ray://host:port`` for Ray's client); ``auto`` is Ray's to find."""
    import socket

    where = address.removeprefix("ray://")
    if where == "auto":
        return
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise OptionError(f"--ray-address {address!r}: host:port (or 'auto') is needed")
    try:
        socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT).close()
    except OSError as e:
        raise OptionError(f"no Ray cluster answers at {address} ({e.strerror or e}); start "
                          "one with `ray start --head`") from None


def ray_connect(compute: Compute):
    """Ray, connected as ``compute`` says (once a process: a second call reuses it)."""
    ray = _ray()
    if compute.ray_address is not None:
        _check_reachable(compute.ray_address)
    if not ray.is_initialized():
        if compute.ray_address is not None:
            try:
                ray.init(address=compute.ray_address, log_to_driver=False)
            except ConnectionError as e:
                raise OptionError(f"cannot join the Ray cluster at {compute.ray_address}: "
                                  f"{e}") from None
        else:
            # every core of this machine (or more, if asked): pools of fewer workers fit
            ray.init(num_cpus=max(compute.jobs or 0, os.cpu_count() or 1),
                     include_dashboard=False, log_to_driver=False)
    return ray


def _writable(value: Any) -> Any:
    """``value`` with its arrays copied writable. Ray hands arrays over read-only (shared
    memory, no copy), and a compiled kernel given a read-only array is another type to
    Numba: it would compile every kernel again in each worker."""
    return copy.deepcopy(value)


class _Actor:
    """A Ray worker: the state built once, then tasks."""

    def __init__(self, setup: Setup, *args: Any) -> None:
        self.state = setup(*_writable(args))

    def run(self, work: Work, task: Any) -> Any:
        return work(self.state, _writable(task))


class RayActors(Pool):
    """Ray actors, one a worker: ``compute.jobs`` of them, or one per CPU of the cluster.
    The setup's arguments are put in Ray's object store once and shared by the actors."""

    def __init__(self, compute: Compute, setup: Setup, args: tuple) -> None:
        ray = self.ray = ray_connect(compute)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        n = compute.jobs or max(1, cpus)
        if n > cpus:  # an actor a CPU: the others would wait for ever
            raise OptionError(f"the Ray cluster has {cpus} CPUs: at most {cpus} workers")
        self.workers = n
        shared = [ray.put(a) for a in args]  # top-level references: Ray resolves them
        actor = ray.remote(num_cpus=1)(_Actor)
        self._actors = [actor.remote(setup, *shared) for _ in range(n)]
        self._load = [0] * n  # tasks under way, an actor
        self._owner: dict[Any, int] = {}

    def submit(self, work: Work, task: Any) -> Any:
        i = min(range(len(self._actors)), key=self._load.__getitem__)
        ref = self._actors[i].run.remote(work, task)
        self._load[i] += 1
        self._owner[ref] = i
        return ref

    def result(self, handle: Any) -> Any:
        try:
            return _writable(self.ray.get(handle))
        finally:
            i = self._owner.pop(handle, None)
            if i is not None:
                self._load[i] -= 1

    def _first_done(self, pending: deque) -> Any:
        ready, _ = self.ray.wait(list(pending), num_returns=1)
        pending.remove(ready[0])
        return ready[0]

    def close(self) -> None:
        for a in self._actors:
            self.ray.kill(a)
        self._actors = []


def open_pool(compute: Compute, setup: Setup, args: tuple = ()) -> Pool:
    """Workers as ``compute`` says, each with the state ``setup(*args)`` (``setup``, the
    tasks' ``work`` and their arguments must pickle: module-level functions)."""
    if compute.uses_ray:
        return RayActors(compute, setup, args)
    n = compute.local_processes
    return Processes(n, setup, args) if n else InProcess(setup, args)


def _square_setup(base: int) -> int:  # the module's example
    return base


def _square_work(base: int, x: int) -> int:
    return base + x * x


__all__ = ["Compute", "HERE", "Pool", "as_compute", "open_pool", "ray_connect", "start_method",
           "RAY_EXTRA"]
