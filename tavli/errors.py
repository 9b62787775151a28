"""Exception types, one per kind of error.

Every error a user can cause (bad text, files, options or commands; an action at the
wrong moment) derives from :class:`TavliError`, so a caller can catch them all; each
subclass names one kind of problem. Anything else that escapes (a ``TypeError`` for an
argument of the wrong type, an ``IndexError``) is a bug of the caller or of tavli, and the
command line lets it show as a traceback.

>>> from tavli.errors import IllegalMove, TavliError
>>> issubclass(IllegalMove, TavliError)
True
"""

from __future__ import annotations

from typing import Any


class TavliError(Exception):
    """Base class of every error raised by tavli on bad input or misuse."""


class ParseError(TavliError, ValueError):
    """Text that should be a move, position ID, dice or record could not be read."""


class IllegalMove(TavliError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPosition(TavliError, ValueError):
    """A position that cannot occur (wrong checker count, both sides on one point, ...)."""


class RuleError(TavliError, ValueError):
    """An unknown rule option, or a value the option does not accept."""


class GameOver(TavliError):
    """An action was attempted on a game or match that has already ended."""


class WrongState(TavliError):
    """An action that is not allowed at this moment (e.g. moving before rolling, doubling
    after the dice are thrown)."""


class RecordError(TavliError, ValueError):
    """A game or match record file is malformed or does not replay."""


class OptionError(TavliError, ValueError):
    """An argument out of its range: a count, a share, a step size, a depth, a name that
    is not among the choices (``RuleError`` is for the rule options of a game)."""


class CliError(TavliError):
    """A command line that cannot be run as given (missing or clashing arguments, a file
    that cannot be used): reported as one line on stderr, exit status 2."""


class NetError(TavliError):
    """A network weights file that cannot be read or does not fit its game."""


class BearoffError(TavliError):
    """The bear-off databases cannot be built, written or read (a bad folder, a file that
    is not a database of this version), or a position that is not a pure bear-off was
    given where one is needed (``tavli bearoff``)."""


class DistillError(TavliError):
    """Distillation labels that cannot be read or do not fit the network."""


class TrainingError(OptionError):
    """A training or distillation setting out of range, or a run folder or starting
    network that cannot be used (``tavli train``, ``tavli distill``)."""


class StoreError(TavliError):
    """The online games' database cannot be used: a malformed ``--db`` URL, a server that
    cannot be reached, a missing driver, a schema newer than this tavli knows."""


class AccessDenied(TavliError):
    """A seat token that is not the seat's (forged, missing, another game's), or a
    spectator acting: nothing changes."""


class StaleAction(TavliError):
    """An action sent for a sequence number already used (replayed, duplicated, or sent
    by a client behind the game): it is refused and the game stays as it is."""


class DiceProofError(TavliError, ValueError):
    """A fair-dice proof (seeds, commitment) that cannot be read or used, or a client seed
    of the wrong form."""


class RecordShapeError(TavliError, ValueError):
    """An uploaded record that is not the engine's record format, or is too large to
    replay (the web app checks its shape before replaying it)."""


class RulesError(TavliError):
    """A rules page asked for a game or an option that does not exist."""


class ClockError(TavliError):
    """A clock or abandonment setting out of range (answered 422)."""


class ProtocolError(TavliError):
    """A client message that breaks the online protocol, answered as ``{"type": "error",
    "error": message, "code": code}``."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


class ServeError(TavliError):
    """A ``tavli serve`` child did not start (its last output in the message)."""


class ApiError(TavliError):
    """An error the web API answers as ``{"error": message, "code": code}`` with HTTP
    ``status``; ``key`` and ``params`` name the catalogue's message for other languages
    (:func:`tavli.web.errors.translated`); ``retry_after``: the seconds a client must wait
    before asking again (a 429's ``Retry-After`` header)."""

    def __init__(self, status: int, message: str, code: str = "error", *,
                 key: str | None = None, params: dict[str, Any] | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.key = key              # the catalogue's message, when there is one
        self.params = params or {}
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"ApiError({self.status}, {self.message!r}, {self.code!r})"


MAX_MESSAGE = 300

#: the catalogue's message (:mod:`tavli.i18n`) for each kind of engine error, the words a
#: player reads in another language than English (the web app's answers, the CLI's line)
KIND_KEYS: tuple[tuple[type[TavliError], str], ...] = (
    (IllegalMove, "err.illegal_move"), (GameOver, "err.game_over"),
    (WrongState, "err.wrong_state"), (RecordError, "err.invalid_record"),
    (ParseError, "err.cannot_read"), (InvalidPosition, "err.cannot_read"),
    (RuleError, "err.cannot_read"))


def kind_key(e: TavliError) -> str | None:
    """The catalogue key of the kind of ``e`` (:data:`KIND_KEYS`), None for another kind.

    >>> kind_key(IllegalMove("24/18 is blocked")), kind_key(CliError("no such file"))
    ('err.illegal_move', None)
    """
    return next((key for kind, key in KIND_KEYS if isinstance(e, kind)), None)


def one_line(message: object, limit: int = MAX_MESSAGE) -> str:
    """An error message as one line of at most ``limit`` characters (a message quoting a
    huge argument or input line is cut, ending with ``...``).

    >>> one_line("bad position ID 'AB\\nC'")
    "bad position ID 'AB C'"
    >>> len(one_line("x" * 100_000)), one_line("x" * 100_000)[-4:]
    (300, 'x...')
    """
    text = " ".join(str(message).splitlines())
    return text if len(text) <= limit else text[:limit - 3] + "..."
