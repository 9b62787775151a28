"""The common ground of the match file formats: a game as a file tells it (a list of
:class:`Act`), read off a tavli game's history for export, and replayed through the
engine for import, so an imported game is checked move by move and can be reviewed and
continued. Every problem is a one-line :class:`~tavli.errors.RecordError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavli.engine.board import parse_dice
from tavli.engine.dice import DiceSource, ScriptedDice
from tavli.engine.layout import SIDE_NAMES
from tavli.engine.rules import Rules
from tavli.errors import RecordError, TavliError
from tavli.play.game import RESIGN_POINTS, Game
from tavli.play.history import Beaver, Double, Drop, Pass, Play, Take
from tavli.play.match import Match
from tavli.play.record import MAX_EVENTS, MAX_GAMES, MAX_TOTAL, check_size
from tavli.play.text import player_name

RESIGN_VALUES = {v: k for k, v in RESIGN_POINTS.items()}


@dataclass
class Act:
    """One thing a side does: ``turn`` (``dice``, ``steps``: single-die steps
    ``(from, to, hit)`` in the mover's numbering, 25 the bar and 0 off; or ``move`` text;
    no steps and no text: the turn passes), ``double``, ``take``, ``drop``, ``beaver``,
    or ``win`` (``points``: the game's result as the file states it)."""

    side: int
    kind: str
    dice: tuple[int, int] | None = None
    steps: list[tuple[int, int, bool]] = field(default_factory=list)
    move: str | None = None
    points: int = 0
    resigned: bool = False


@dataclass
class GameScript:
    acts: list[Act] = field(default_factory=list)
    #: the score (white, black) before the game as the file states it, when it does
    score: tuple[int, int] | None = None
    crawford: bool | None = None


@dataclass
class MatchScript:
    """``length`` 0: money play (one game)."""

    length: int
    games: list[GameScript] = field(default_factory=list)
    #: the players' names (white, black) the file gives, if any
    names: tuple[str, str] | None = None


def within_limits(ms: MatchScript, total: int) -> None:
    """Stop reading a file as soon as it passes the import limits (``total``: its acts so
    far; cheap to call after every line): the limits of :mod:`tavli.play.record`, so
    the script held in memory stays small whatever the file's size."""
    if total > MAX_TOTAL or len(ms.games) > MAX_GAMES or \
            (ms.games and len(ms.games[-1].acts) > MAX_EVENTS):
        check_size([len(g.acts) for g in ms.games], "actions")


# --- export -------------------------------------------------------------------------------
def backgammon_games(obj: Game | Match, fmt: str) -> tuple[int, list[Game]]:
    """The match length (0 for a single money game) and the games, checked to be
    backgammon: gnubg's formats hold no Portes, Plakoto or Fevga."""
    games = obj.games if isinstance(obj, Match) else obj if isinstance(obj, list) else [obj]
    for g in games:
        if not isinstance(g, Game):  # a Dama game (tavli.play.dama)
            raise RecordError(f"{fmt} files hold backgammon games only (as gnubg plays them), "
                              "not Dama: save it as PDN (.pdn) or a tavli record (.json)")
        if g.rules.game_name != "backgammon":
            raise RecordError(f"{fmt} files hold backgammon games only (as gnubg plays them), "
                              f"not {g.rules.game_name}: save it as a tavli record (.json)")
        if g.start_position != type(g.start_position).start("backgammon",
                                                            g.start_position.turn):
            raise RecordError(f"{fmt} files start from the opening position: a game set up "
                              "from another position can be saved as a tavli record (.json)")
    return (obj.target if isinstance(obj, Match) else 0), games


def acts_of(g: Game) -> list[Act]:
    """The acts of a game from its history, with its result last (``win``)."""
    out: list[Act] = []
    for a in g.history:
        if isinstance(a, Play):
            out.append(Act(a.side, "turn", tuple(a.dice), list(a.move.steps)))  # type: ignore[arg-type]
        elif isinstance(a, Pass):
            out.append(Act(a.side, "turn", tuple(a.dice)))  # type: ignore[arg-type]
        elif isinstance(a, Double):
            out.append(Act(a.side, "double", points=a.cube))
        elif isinstance(a, Take):
            out.append(Act(a.side, "take"))
        elif isinstance(a, Beaver):
            out.append(Act(a.side, "beaver"))
        elif isinstance(a, Drop):
            out.append(Act(a.side, "drop"))
    o = g.outcome
    if o is not None and o.winner is not None:
        out.append(Act(o.winner, "win", points=o.points, resigned=o.kind == "resign"))
    return out


def scores_before(obj: Game | Match) -> list[tuple[int, int]]:
    """The score (white, black) before each game."""
    games = obj.games if isinstance(obj, Match) else [obj]
    s = [0, 0]
    out = []
    for g in games:
        out.append((s[0], s[1]))
        if g.outcome is not None and g.outcome.winner is not None:
            s[g.outcome.winner] += g.outcome.points
    return out


# --- import -------------------------------------------------------------------------------
class _Feed(ScriptedDice):
    def __init__(self) -> None:
        super().__init__([])
        self.feed: list[int] = []

    def die(self) -> int:
        if not self.feed:
            raise RecordError("the file's dice ran out")
        return self.feed.pop(0)


def build(ms: MatchScript, fmt: str) -> Game | Match:
    """Replay a script into a tavli game (money play) or match, with the file's names."""
    obj = _build(ms, fmt)
    obj.names = ms.names
    return obj


def names_to_write(obj: Game | Match) -> tuple[str, str]:
    """The names (white, black) a file gives the players: theirs, else the sides'."""
    return obj.names or (SIDE_NAMES[0], SIDE_NAMES[1])


def names_read(white: str, black: str, where: str) -> tuple[str, str] | None:
    """The names a file gives (cleaned as :func:`tavli.play.text.player_name`), or None
    when one is empty or they are just the sides' (what tavli writes for unnamed
    players)."""
    if not white.strip() or not black.strip():
        return None
    names = (player_name(white, where), player_name(black, where))
    return None if names == (SIDE_NAMES[0], SIDE_NAMES[1]) else names


def _build(ms: MatchScript, fmt: str) -> Game | Match:
    if not ms.games:
        raise RecordError(f"the {fmt} file holds no game")
    check_size([len(g.acts) for g in ms.games], "actions")
    rules = Rules.for_game("backgammon")
    feed = _Feed()
    if ms.length == 0:
        if len(ms.games) != 1:
            raise RecordError(f"the {fmt} file holds {len(ms.games)} money games: tavli "
                              "imports a money session of one game only")
        g = Game(rules, dice=feed)
        _replay(g, ms.games[0], feed, "game 1")
        g.dice_source = DiceSource()  # the game plays on with fresh dice
        return g
    if not 1 <= ms.length <= 99:
        raise RecordError(f"a {ms.length}-point match: tavli plays matches of 1..99 points")
    # gnubg opens every game with the opening throw; a tavli match of the previous
    # winner's starts shows itself by a later game opening with a double
    doubles_first = any(_first_dice_double(gs) for gs in ms.games[1:])
    m = Match(ms.length, "backgammon", dice=feed, opening_each_game=not doubles_first)
    for i, gs in enumerate(ms.games):
        where = f"game {i + 1}"
        if i > 0:
            try:
                m.next_game()
            except TavliError as e:
                raise RecordError(f"{where}: {e}") from None
        if gs.score is not None and gs.score != m.score:
            raise RecordError(f"{where}: the file gives the score as "
                              f"{gs.score[0]}-{gs.score[1]} (white-black), the games before "
                              f"make it {m.score[0]}-{m.score[1]}")
        if gs.crawford is not None and gs.crawford != m.game.crawford:
            raise RecordError(f"{where}: the file says it is {'' if gs.crawford else 'not '}"
                              "the Crawford game; the score says otherwise")
        _replay(m.game, gs, feed, where)
    m.dice_source = DiceSource()  # the match plays on with fresh dice
    for g in m.games:
        g.dice_source = m.dice_source
    return m


def _end_early(g: Game, win: Act, at: str) -> None:
    """End ``g`` with the result a file states before the moves reach an end: a
    resignation (single, gammon or backgammon times the cube), else a forfeit when the
    points are the forfeit's (an online game lost on time or abandoned: in a match, the
    points the winner still needed; the file does not say which, so ``abandoned``)."""
    loser = 1 - win.side
    value = RESIGN_VALUES.get(win.points // g.cube_value) \
        if win.points % g.cube_value == 0 else None
    try:
        if value is not None:
            g.resign(loser, value)
        elif win.points == g.forfeit_points(loser):
            g.forfeit(loser, "abandoned")
        else:
            raise RecordError(f"{at} is not 1, 2 or 3 times the cube ({g.cube_value}) "
                              f"nor what a forfeit gives ({g.forfeit_points(loser)})")
    except RecordError:
        raise
    except TavliError as e:
        raise RecordError(f"{at}: {e}") from None


def _first_dice_double(gs: GameScript) -> bool:
    for a in gs.acts:
        if a.kind == "turn":
            return a.dice is not None and a.dice[0] == a.dice[1]
    return False


def _move_text(a: Act) -> str | None:
    if a.move is not None:
        return a.move.strip() or None
    if not a.steps:
        return None
    name = {25: "bar", 0: "off"}
    return " ".join(f"{name.get(s, s)}/{name.get(t, t)}" for s, t, _ in a.steps)


def _replay(g: Game, gs: GameScript, feed: _Feed, where: str) -> None:
    win: Act | None = None
    turn_no = 0
    for a in gs.acts:
        if a.kind == "turn":
            turn_no += 1
        at = f"{where}, turn {turn_no} ({SIDE_NAMES[a.side]})"
        if win is not None:
            raise RecordError(f"{at}: play goes on after the game's result")
        try:
            if a.kind == "win":
                win = a
                continue
            if g.is_over:
                raise RecordError(f"{at}: the game is already over ({g.outcome})")
            if g.turn != a.side and g.phase != "opening":
                raise RecordError(f"{at}: it is {SIDE_NAMES[g.turn]}'s turn")
            if a.kind == "turn":
                assert a.dice is not None
                dice = parse_dice(a.dice)
                if g.phase == "opening":
                    hi, lo = max(dice), min(dice)
                    if hi == lo:
                        raise RecordError(f"{at}: the opening roll {hi}{lo} is a double")
                    feed.feed[:] = [hi, lo] if a.side == 0 else [lo, hi]
                    g.roll()
                    if g.turn != a.side:
                        raise RecordError(f"{at}: the opening roll makes "
                                          f"{SIDE_NAMES[g.turn]} start")
                else:
                    g.set_dice(dice)
                g.play(_move_text(a))
            elif a.kind == "double":
                g.double()
            elif a.kind == "take":
                g.take()
            elif a.kind == "beaver":
                g.beaver()
            elif a.kind == "drop":
                g.drop()
            else:
                raise RecordError(f"{at}: unknown action {a.kind!r}")
        except RecordError:
            raise
        except TavliError as e:
            raise RecordError(f"{at}: {e}") from None
    if win is None:
        return
    at = f"{where}: the result ({SIDE_NAMES[win.side]} wins {win.points})"
    if not g.is_over:
        _end_early(g, win, at)
    o = g.outcome
    assert o is not None
    if o.winner != win.side or o.points != win.points:
        raise RecordError(f"{at} differs from the replay's: {o}")
