"""An event's settings, checked when it is made: format, seats, rounds or minutes, pace, rated, duplicate dice, luck
as the first tie-break and the game's rules options. A bad value is refused with what is allowed (a ``ValueError``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ...tournaments.scoring import DEFAULT_TIEBREAKS
from ..clocks.clock import Pace, parse_pace
from ..games import GameKind, hosted
from ..tables.forms import lobby_options

FORMATS = ("swiss", "round-robin", "arena")
ROUNDS = (1, 15)
MINUTES = (5, 7 * 24 * 60)  # an arena's window
ROUND_ROBIN_MOST = 8
MIN_GAMES = (0, 1000)
ROUND_EVERY = (0, 14 * 24 * 60)  # minutes: up to a round a fortnight
MOST = 256  # entrants of a Swiss or an arena
NAME_LENGTH = 60


@dataclass(frozen=True)
class Settings:
    format: str = "swiss"
    seats: int = 2
    rounds: int = 5
    minutes: int = 60
    pace: dict[str, Any] = field(default_factory=lambda: Pace("turn-based", 24 * 3600.0, 0.0, "move", "day").to_dict())
    rated: bool = False
    duplicate: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    min_games: int = 0  # rated games of the game an account needs to sign up (0: anyone)
    round_every: int = 0  # Swiss: round N opens no sooner than (N - 1) times this many minutes after the start
    bots_fill: bool = False  # the server's bot fills a short table's empty seats (and plays a bye's player)
    luck: bool = False  # ties are broken first by the coach's luck (who needed less goes first; made events' default)

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        return ("luck", *DEFAULT_TIEBREAKS) if self.luck else DEFAULT_TIEBREAKS

    @classmethod
    def of(cls, doc: dict[str, Any]) -> Settings:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in doc.items() if k in known})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def most(self) -> int:
        """How many may sign up."""
        return ROUND_ROBIN_MOST if self.format == "round-robin" else MOST


def _number(value: Any, what: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r}") from None
    if not low <= number <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {number}")
    return number


def _flag(value: Any) -> bool:
    return value in (True, 1, "1", "on", "true", "yes")


def check_settings(game: str, given: dict[str, Any]) -> Settings:
    """The settings of a new event of ``game`` from a form or a JSON body (raises ValueError: what is allowed)."""
    kind = hosted().get(game)
    if kind is None:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(hosted())}")
    form = str(given.get("format", "swiss"))
    if form not in FORMATS:
        raise ValueError(f"unknown format {form!r}; the formats are {', '.join(FORMATS)}")
    low, high = kind.spec.players
    seats = _number(given.get("seats", 2), "seats", max(2, low), min(4, high))
    if form == "round-robin" and seats != 2:
        raise ValueError("a round-robin is played at two seats: everyone meets everyone once")
    rounds = _number(given.get("rounds", 5), "rounds", *ROUNDS) if form == "swiss" else 0
    minutes = _number(given.get("minutes", 60), "minutes", *MINUTES) if form == "arena" else 0
    pace = parse_pace(given.get("pace") or "day")
    if pace is None:
        raise ValueError("an event's games are played on a clock: choose a pace")
    duplicate = _flag(given.get("duplicate"))
    if duplicate and (kind.spec.dealing is None or form == "arena"):
        raise ValueError("duplicate dice are for Swiss and round-robin events of a game with dice to deal"
                         f" ({', '.join(g for g, k in hosted().items() if k.spec.dealing is not None)})")
    luck = _flag(given.get("luck", kind.spec.coach is not None)) and form != "arena"  # an arena has no such ties
    if luck and kind.spec.coach is None:
        raise ValueError("luck breaks ties in events of a game the coach analyses"
                         f" ({', '.join(g for g, k in hosted().items() if k.spec.coach is not None)})")
    options = given.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("'options' must be an object of the game's rules options")
    for size in range(2, seats + 1):  # an uneven count seats smaller tables: every size must take the options
        lobby_options(kind.spec, {"options": dict(options)}, size)
    min_games = _number(given.get("min_games") or 0, "min_games (rated games needed to sign up)", *MIN_GAMES)
    every = _number(given.get("round_every") or 0, "round_every (minutes between the rounds' starts)",
                    *ROUND_EVERY) if form == "swiss" else 0
    return Settings(form, seats, rounds, minutes, pace.to_dict(), _flag(given.get("rated")), duplicate,
                    {k: v for k, v in options.items() if k != kind.spec.seats_option}, min_games, every,
                    _flag(given.get("bots_fill")), luck)


def check_name(value: Any) -> str:
    name = " ".join(str(value or "").split())
    if not name or len(name) > NAME_LENGTH:
        raise ValueError(f"an event's name is 1 to {NAME_LENGTH} characters")
    return name


def filler(kind: GameKind) -> str:
    """The bot that fills a short table's seats: the quick greedy bot where the game has one (as a stand-in)."""
    return "greedy" if "greedy" in kind.bots else kind.bots[0]


def fillers(settings: Settings, players: int) -> int:
    """How many of a table's seats the server's bot fills."""
    return max(0, settings.seats - players) if settings.bots_fill else 0


def pace_of(settings: Settings) -> Pace:
    return Pace.from_dict(settings.pace)


def rules_for(kind: GameKind, settings: Settings, seats: int) -> Any:
    """The rules of one of the event's tables (its seats, the event's options; a drawn option drawn afresh)."""
    checked = lobby_options(kind.spec, {"options": dict(settings.options)}, seats)
    return kind.spec.make_rules(**checked)
