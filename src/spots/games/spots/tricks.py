"""The 22 trick tiles, as data.

A tile is a colour, its printed text and a sequence of steps. Most steps are a
roll described by a few fields (how many dice, from where, which dice are
kept, whether the step is optional or repeatable); the handful of steps that
are not rolls name a small procedure in the state machine (``trot``, ``dig``,
``retrieve``, ``bolt``, ``guard``) or a treat formula. Adding a tile is
mostly a table entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import RulesError


@dataclass(frozen=True, slots=True)
class Step:
    """One printed step of a tile.

    kind: ``roll``, ``draw`` (Howl), ``treats`` or a named procedure.
    dice: dice rolled; an int, or ``yard`` (Roll Over), ``sprint``, ``hunt``.
    source: ``supply``, ``yard`` (Roll Over) or ``dogpile`` (2 + 1 taken).
    optional: the first roll of the step is asked (``continue``/``stop``).
    repeat: after each roll another one is offered.
    grow: each repeat rolls one die more than the previous roll (Chase).
    keep: how the dice to keep are chosen (blue tiles): ``fetch``, ``guard``,
        ``hunt``, ``scavenge``, ``search``; None keeps every die.
    partial_reroll: a treat may reroll only some dice (Track).
    bonus: ``play-dead``: burying the die without busting pays its spots.
    treats: the treat formula of a ``treats`` step (see TREAT_FORMULAS).
    """

    kind: str
    dice: int | str = 0
    source: str = "supply"
    optional: bool = False
    repeat: bool = False
    grow: bool = False
    keep: str | None = None
    partial_reroll: bool = False
    bonus: str | None = None
    treats: str | None = None


@dataclass(frozen=True, slots=True)
class Tile:
    name: str
    title: str
    colour: str
    text: str
    steps: tuple[Step, ...]


def N_(text: str) -> str:
    """Marks a text for translation (``pybabel extract -k N_``); the data stays English."""
    return text


def roll(dice: int | str, **fields: object) -> Step:
    return Step("roll", dice, **fields)  # type: ignore[arg-type]


TILES: dict[str, Tile] = {
    t.name: t
    for t in (
        # Red core, in every game.
        Tile("howl", N_("Howl"), "red",
             N_("If you have fewer dogs than the dog limit, draw the top dog. Then roll 1 die."),
             (Step("draw"), roll(1))),
        Tile("roll-over", N_("Roll Over"), "red",
             N_("Take every die out of your yard and roll them together, then place or rebury them. "
             "Then you may roll 1 die."),
             (roll("yard", source="yard"), roll(1, optional=True))),
        # Yellow.
        Tile("walk", N_("Walk"), "yellow", N_("Roll 2 dice. Then you may roll 1 die."),
             (roll(2), roll(1, optional=True))),
        Tile("trot", N_("Trot"), "yellow",
             N_("You may move 1 die from a space on one of your dogs to an empty space on any of your dogs, "
             "turning it to that space's number. Then roll 2 dice."),
             (Step("trot"), roll(2))),
        Tile("dig", N_("Dig"), "yellow",
             N_("For each paw, you may raise or lower any player's buried die by 1 "
             "(lowering a 1 returns it to the supply). Then roll 2 dice."),
             (Step("dig"), roll(2))),
        Tile("retrieve", N_("Retrieve"), "yellow",
             N_("Take 1 die from the supply, set it to any number on the top card of the dog deck, "
             "and place or bury it. Then roll 2 dice."),
             (Step("retrieve"), roll(2))),
        Tile("track", N_("Track"), "yellow",
             N_("Roll 3 dice. When you spend a treat on this roll you may reroll only some of the dice."),
             (roll(3, partial_reroll=True),)),
        # Purple.
        Tile("run", N_("Run"), "purple", N_("Roll 3 dice. Then you may roll 1 die; you may repeat this step."),
             (roll(3), roll(1, optional=True, repeat=True))),
        Tile("chase", N_("Chase"), "purple",
             N_("Roll 1 die. You may repeat, each time rolling 1 more die than the time before."),
             (roll(1, repeat=True, grow=True),)),
        Tile("bolt", N_("Bolt"), "purple",
             N_("Set aside 3 to 12 dice. Roll them one at a time. You may stop early only while your "
             "paws are at least the number of dice not yet rolled."),
             (Step("bolt"),)),
        Tile("dogpile", N_("Dogpile"), "purple",
             N_("Take 2 dice from the supply plus 1 die from your yard or one of your dogs, roll them all. "
             "You may repeat."),
             (roll(2, source="dogpile", repeat=True),)),
        Tile("sprint", N_("Sprint"), "purple",
             N_("Roll 1 die for each of your dogs with an empty space. You may repeat."),
             (roll("sprint", repeat=True),)),
        # Green: getting treats.
        Tile("beg", N_("Beg"), "green", N_("Take 1 treat, then 1 more per paw."),
             (Step("treats", treats="beg"),)),
        Tile("chew", N_("Chew"), "green", N_("Double your treats, then take 1."),
             (Step("treats", treats="chew"),)),
        Tile("gobble", N_("Gobble"), "green",
             N_("Take 7 treats, then return as many as the number on your highest empty space."),
             (Step("treats", treats="gobble"),)),
        Tile("play-dead", N_("Play Dead"), "green",
             N_("Roll 1 die. If you bury it without busting, take as many treats as its spots."),
             (roll(1, bonus="play-dead"),)),
        Tile("stay", N_("Stay"), "green", N_("Take 1 treat for each face-down trick tile other than Stay."),
             (Step("treats", treats="stay"),)),
        # Blue: choosing dice.
        Tile("fetch", N_("Fetch"), "blue",
             N_("Roll 8 dice. Choose one number that was rolled; place or bury every die showing it."),
             (roll(8, keep="fetch"),)),
        Tile("guard", N_("Guard"), "blue",
             N_("Name a number from 1 to 6, then roll 4 dice. Dice above the number return to the supply."),
             (Step("guard"), roll(4, keep="guard"))),
        Tile("hunt", N_("Hunt"), "blue", N_("Roll 2 dice plus 1 per paw. Choose 2 of them to place or bury."),
             (roll("hunt", keep="hunt"),)),
        Tile("scavenge", N_("Scavenge"), "blue",
             N_("Roll 4 dice. You may return any of them whose number is lower than your yard total."),
             (roll(4, keep="scavenge"),)),
        Tile("search", N_("Search"), "blue",
             N_("Roll 7 dice. If some add up to exactly 8, choose such a set to place or bury."),
             (roll(7, keep="search"),)),
    )
}

COLOURS = ("yellow", "purple", "green", "blue")
CORE = ("howl", "roll-over")

SUGGESTED_SETS: dict[str, tuple[str, ...]] = {
    "adoption-event": ("walk", "run", "beg", "fetch"),
    "dog-park": ("dig", "chase", "chew", "guard"),
    "agility-course": ("trot", "bolt", "gobble", "fetch"),
    "hunting": ("retrieve", "sprint", "stay", "hunt"),
    "kennel-club": ("track", "dogpile", "beg", "search"),
    "puppy-pen": ("retrieve", "bolt", "play-dead", "scavenge"),
}
SET_ALIASES = {"beginner": "adoption-event"}


def suggested_set(name: str) -> tuple[str, ...]:
    key = SET_ALIASES.get(name, name)
    if key not in SUGGESTED_SETS:
        raise RulesError(
            f"unknown trick set {name!r}; choose one of: "
            + ", ".join(["beginner", *SUGGESTED_SETS, "random", "random:N", "all"])
            + ", or a list of tile names"
        )
    return CORE + SUGGESTED_SETS[key]


# Treat formulas: (treats held, paws, highest empty space, face-down tiles other
# than Stay) -> (treats taken, treats returned). The engine caps both by what exists.
TreatFormula = Callable[[int, int, int, int], tuple[int, int]]
TREAT_FORMULAS: dict[str, TreatFormula] = {
    "beg": lambda held, paws, highest_empty, down: (1 + paws, 0),
    "chew": lambda held, paws, highest_empty, down: (held + 1, 0),
    "gobble": lambda held, paws, highest_empty, down: (7, highest_empty),
    "stay": lambda held, paws, highest_empty, down: (down, 0),
}
