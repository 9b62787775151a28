"""What the browser app's HTTP API answers, as models (docs/web.md, "The HTTP API"): the
schema's answers (:func:`tavli.web.openapi.declared`), the same the online server uses
where it answers the same (the games' menus, the catalogue, the rules, a review, a
record).

The models say each answer's fields, their types and which may be null or absent; the
nested parts the page reads as the engine makes them (a position, a turn tree, a review's
turns) are JSON objects here, described in docs/web.md. The routes build their answers
as plain dicts and are not checked against these at run time: the suite's schemathesis
runs check every answer they get (tests/test_web_fuzz.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel

from tavli.web.openapi import Answer

Json = dict[str, Any]
Side = Literal["white", "black"]
#: a text of the catalogue with its parameters (the page writes it in its language)
Message = Json


class BySide(Answer):
    """A number per side (a score, a pip count)."""

    white: int
    black: int


class Cube(Answer):
    used: bool = Field(description="the game is played with the doubling cube")
    value: int
    owner: Side | None
    can_double: bool
    crawford: bool
    can_beaver: bool


class LegalMove(Answer):
    move: str = Field(description="the move in the engine's notation")
    steps: list[list[int | str | bool]] = Field(description="[from, to, hit] per checker step")


class GameResult(Answer):
    game: str
    result: Json | None = Field(description="the outcome: winner, points, kind")


class DiceState(Answer):
    """A game or match of the dice games (Portes, Plakoto, Fevga, backgammon, a Tavli
    match) as it stands."""

    id: str
    title: str
    kind: Literal["game", "match"]
    variant: str
    imported: bool
    practice: bool
    game: str
    rules: Json = Field(description="the game's rule options, with its name")
    game_number: int
    target: int | None = Field(description="a match's length")
    games: list[GameResult]
    score: BySide
    finished: bool
    winner: Side | None
    phase: Literal["opening", "roll", "move", "double", "over"]
    turn: Side
    mover: Side
    dice: list[int] | None
    dice_text: str | None
    opening: list[int] | None
    opening_text: str | None
    numbering: Side
    position: Json
    position_id: str
    legal_moves: list[LegalMove]
    turn_tree: Json | None
    opposite: list[int]
    pips: BySide
    cube: Cube
    outcome: Json | None
    resign_values: list[Literal["single", "gammon", "backgammon"]]
    players: dict[Side, Json]
    ai_to_act: bool
    last: Json | None
    last_moves: dict[Side, Json | None]
    history: list[Json]
    history_text: list[str]
    message: str
    cube_hint: bool
    ids: Json = Field(description="the position's IDs: tavli's, gnubg's, XG's")
    formats: list[Literal["json", "mat", "sgf"]]
    can_continue: bool


class DamaState(Answer):
    """A game of Dama as it stands."""

    id: str
    game: Literal["dama"]
    rules: str
    huffing: bool
    rules_text: str
    italian_board: bool
    rules_key: str
    notation: str
    levels: dict[Side, str]
    compulsory: bool
    players: dict[Side, Json]
    fen: str
    turn: Side
    to_act: Literal["human", "ai"] | None
    board: list[Json]
    counts: dict[Side, Json]
    legal_moves: list[Json]
    huff: list[int]
    over: bool
    result: str
    winner: Side | None
    reason: str | None
    reason_msg: Message | None
    plies: int
    history: list[Json]
    last: Json | None


class GameState(RootModel[DiceState | DamaState]):
    """A game's state: the dice games' or Dama's."""


class Listed(Answer):
    """A stored game in the list."""

    id: str
    app: Literal["tavli", "dama"]
    kind: str
    variant: str
    status: str
    title: str
    created: float
    updated: float
    players: Json | None
    score: list[int] | None
    points: int | None
    practice: bool
    formats: list[str] = Field(None, description="the dice games': what it exports to")
    rules: str = Field(None, description="Dama's: the rule set")
    huffing: bool = Field(None, description="Dama's")


class GameList(Answer):
    games: list[Listed]
    total: int
    limit: int
    offset: int


class GameInfo(Answer):
    name: str
    display: str
    summary: str
    note: str
    cube: bool
    opposite: list[int]


class Rotation(Answer):
    name: str
    display: str
    games: list[str]


class Info(Answer):
    """The games, Tavli matches and AI levels of the New game menus."""

    variants: list[str]
    games: list[GameInfo]
    rotations: list[Rotation]
    levels: list[str]
    level_titles: dict[str, str]
    default_level: str


class LocalInfo(Info):
    """:class:`Info` and which engine plays each game for the AI."""

    engines: dict[str, str]


class Warmup(Answer):
    ready: bool
    cold: bool = Field(description="the kernels are being compiled (a first run)")
    done: int
    total: int
    seconds: float
    key: str = Field(None, description="while not ready: the next part's message key")
    text: str = Field(None, description="while not ready: the next part, in English")


class Catalogue(Answer):
    lang: str
    languages: dict[str, str]
    messages: dict[str, str | list[str]]


class RulesPage(Answer):
    game: str
    lang: str
    title: str
    from_game: bool
    sections: list[Json]
    options: list[Json]
    games: list[str]
    match: str | None
    points: int | None
    target: str | None


class Hint(Answer):
    """The legal moves of the roll, ranked."""

    dice: list[int]
    ply: int
    side: Side
    engine: str
    class_: str = Field(None, alias="class", description="the neural engine's: the "
                                                         "position's class")
    evaluator: str = Field(None, description="the neural engine's")
    score: Json = Field(None, description="in a match: the score")
    moves: list[Json]


class CubeHint(Answer):
    """The cube decision due, valued."""

    role: str
    side: Side
    doubler: Side
    ply: int
    situation: str
    situation_msg: Message
    action: str
    action_msg: Message
    advice: str
    advice_key: str
    note_key: str | None
    double: bool
    take: bool
    beaver: bool
    available: bool
    rows: list[Json]
    equities: dict[str, float]
    mwc: dict[str, float] | None
    cubeless: float
    probabilities: dict[str, float]
    cubeless_text: str
    x: float
    note: str
    lines: list[str]


class Review(Answer):
    """A finished review: the win-probability curve, each turn, the cube decisions, the
    mistakes and each player's totals."""

    id: str
    ply: int
    title: str
    ply_note: str
    ply_note_msg: Message | None
    result: Json | None
    games: list[Json]
    curve: list[Json]
    turns: list[Json]
    cube: list[Json]
    mistakes: list[Json]
    players: dict[Side, Json]
    summary: list[str]
    summary_msgs: list[Message]


class ReviewProgress(Answer):
    """A review in the making: ask again (``Retry-After``)."""

    status: Literal["running"]
    done: int
    total: int
    progress: float


class Record(Answer):
    """A game or match record (docs/formats.md)."""

    format: Literal["tavli-record"]
    version: int
    seed: int | None
    match: Json | None
    games: list[Json]
    names: dict[Side, str] = Field(None, description="the players' names")
    fair_dice: Json = Field(None, description="an online game's dice proof")


__all__ = ["DiceState", "DamaState", "GameState", "GameList", "Info", "LocalInfo",
           "Warmup", "Catalogue", "RulesPage", "Hint", "CubeHint", "Review",
           "ReviewProgress", "Record", "Json", "Side", "BySide"]
