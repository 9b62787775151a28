"""The old name of :mod:`tavli.ai.neural` (the AI players), kept so that old imports work:
every name is looked up in :mod:`tavli.ai.neural` when asked for (so a name patched there
is seen here too). New code imports ``tavli.ai.neural``."""

from __future__ import annotations

from typing import Any

from . import neural


def __getattr__(name: str) -> Any:
    """``tavli.ai.neural``'s attribute ``name``."""
    return getattr(neural, name)
