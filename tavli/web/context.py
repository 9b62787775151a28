"""What the browser app's routes share (:class:`WebContext`), built once by
:func:`tavli.web.app.create_app` and handed to each domain's ``mount_*`` in
:mod:`tavli.web.routes`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.concurrency import run_in_threadpool

from tavli.web import workers
from tavli.web.api import TavliApi
from tavli.web.limits import SESSIONS
from tavli.web.workers import EnginePool


@dataclass(frozen=True, eq=False)
class WebContext:
    """The app's parts and limits: the one API of every game ``api`` (its store:
    ``api.store``), the worker ``pool`` where the engine thinks, the games kept in memory
    (``sessions``) and the seconds an AI move or a hint may take (``ai_deadline``)."""

    api: TavliApi
    pool: EnginePool
    sessions: int = SESSIONS
    ai_deadline: float = workers.AI_DEADLINE

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the thread pool (awaitable): the store and the engine's
        checks stay off the event loop."""
        return run_in_threadpool(fn, *args)


__all__ = ["WebContext"]
