"""``spots play --daily`` and ``--challenge``: a solo deal at the terminal, raced against the bot on the same dice.

The game is the ordinary terminal game (``spots_terminal``) on the deal's keyed dice. Par and the bot's race
(``games/spots/par.py``) are worked out in a thread while the player plays, so nobody waits for them; after each
of the player's turns the bot's board at the same turn is shown when it is known, and at the end the score is
set against par with the race side by side.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from rich.console import Console

from ... import i18n
from ...core.games import sniff
from ...play.table import HUMAN
from . import Game
from .daily import MEDAL_WORDS, Challenge, Deal, challenge_named, daily_deal, medal, parse_day, score_of
from .errors import StateFormatError
from .keyed import KeyedDice
from .par import PAR_GAMES, Par, par_bot, par_of
from .state import State
from .terminal import Table, TerminalGame
from .tricks import N_

GUIDE = (
    N_("Solo: score {target} dogs in as few turns as you can; a bust costs you the turn's dice, not the game."),
    N_("Everyone plays these same dice today: a roll depends only on your turn, the roll within it and the die."),
    N_("The {bot} bot plays the same dice beside you: after each of your turns you see its board at that turn."),
)


class ParWorker(threading.Thread):
    """Works out the deal's par (from the cache when it is there) without holding up the game."""

    def __init__(self, deal: Deal, games: int) -> None:
        super().__init__(daemon=True)
        self.deal, self.games = deal, games
        self.par: Par | None = None
        self.played = 0  # the bot's games done so far (the progress a waiting player is shown)

    def run(self) -> None:
        self.par = par_of(self.deal, self.games, played=self.count)

    def count(self, played: int) -> None:
        self.played = played


class SoloGame(TerminalGame):
    """A solo deal: the ordinary game, with the bot's race after each turn and the score against par."""

    def __init__(self, table: Table, console: Console, worker: ParWorker, challenge: Challenge | None,
                 **options: Any) -> None:
        super().__init__(table, console, **options)
        self.worker, self.challenge = worker, challenge
        self.shown_turn = 0

    again = "spots play --daily"  # the command that continues the game (set by ``start``)

    def continue_command(self, path: Path) -> str:
        return self.again  # --load would roll fresh dice, not the deal's

    def run(self) -> int:
        _ = self._
        for line in GUIDE:
            self.say(_(line).format(target=self.state.rules.target, bot=par_bot(self.worker.deal)), "cyan")
        if self.challenge is not None:
            goal = self.challenge.goal
            self.say(_("Challenge: {title}. Goal: {goal}.").format(
                title=_(self.challenge.title), goal=_(goal.text).format(n=goal.n)), "bold")
        return super().run()

    def _play(self, move: str | None) -> None:
        turn = self.state.turn
        super()._play(move)
        if self.state.turn != turn and turn >= 1 and not self.state.is_terminal():
            self.race_line(turn)

    def race_line(self, turn: int) -> None:
        """The bot's board at the end of the same turn, once par is worked out."""
        par = self.worker.par
        if par is None:
            return
        _, ngettext = self._, self.ngettext
        bot = par.race[min(turn, len(par.race)) - 1]
        finished = _(" (it has finished)") if turn >= len(par.race) else ""
        self.say("  " + _("Bot after turn {turn}: {dogs}, {busts}{finished}").format(
            turn=bot.turn, dogs=ngettext("{n} dog scored", "{n} dogs scored", bot.dogs).format(n=bot.dogs),
            busts=ngettext("{n} bust", "{n} busts", bot.busts).format(n=bot.busts), finished=finished), "magenta")

    def summary(self) -> None:
        super().summary()
        _ = self._
        score = score_of(self.state)
        ngettext = self.ngettext
        self.say(_("Your result: {turns}, {busts}.").format(
            turns=ngettext("{n} turn", "{n} turns", score.turns).format(n=score.turns),
            busts=ngettext("{n} bust", "{n} busts", score.busts).format(n=score.busts)), "bold")
        self.wait_for_par()
        par = self.worker.par
        assert par is not None
        if par.exact is not None:
            self.say(_("Par {par} turns: the exact optimum of this solved variant.").format(par=f"{par.exact:.2f}"))
        else:
            self.say(_("Par {par} turns: the {bot} bot's mean of {games} games on these dice ({confidence} interval "
                       "{low} to {high}).").format(par=f"{par.mean:.1f}", bot=par.bot, games=par.games,
                                                  confidence="95%", low=f"{par.low:.1f}", high=f"{par.high:.1f}"))
        self.say(_("Race on the same dice (dogs scored after each turn):"))
        self.say("  " + _("turn") + "  " + _("you") + "  " + _("bot"))
        mine = self.my_dogs_by_turn()
        for turn in range(1, max(len(mine), len(par.race)) + 1):
            you = mine[turn - 1] if turn <= len(mine) else mine[-1]
            bot = par.race[turn - 1].dogs if turn <= len(par.race) else par.race[-1].dogs
            self.say(f"  {turn:>4}  {you:>3}  {bot:>3}")
        if self.challenge is not None:
            won = medal(self.challenge, score, par.value)
            self.say(_("Medal: {medal}.").format(medal=_(MEDAL_WORDS[won])) if won else
                     _("No medal: the goal was not met."), "bold")

    def wait_for_par(self) -> None:
        """The result is shown already; par may still be worked out: say how far the bot's games have got."""
        said = -1
        while self.worker.is_alive():
            if self.worker.played != said:
                said = self.worker.played
                line = self._("Working out par: the bot has played {played} of {games} games on these dice...")
                self.say(line.format(played=said, games=self.worker.games))
            self.worker.join(2.0)

    def my_dogs_by_turn(self) -> list[int]:
        """Dogs scored at the end of each of the player's turns, replayed from the game's record."""
        probe = Game(self.state.rules).new_initial_state()
        dogs: list[int] = []
        for move in self.state.history():
            turn = probe.turn
            probe.apply_trusted(move)
            if probe.turn != turn and turn >= 1:
                dogs.append(probe.players[0].scored_count())
        dogs.append(probe.players[0].scored_count())
        return dogs[: self.state.turn]


def deal_from(args: Any) -> tuple[Deal, Challenge | None]:
    if getattr(args, "challenge", None):
        challenge = challenge_named(args.challenge)
        return challenge.deal, challenge
    return daily_deal(parse_day(getattr(args, "date", None))), None


def resumed(path: Path | None, deal: Deal) -> State | None:
    """The game of ``deal`` saved at ``path`` (unfinished: to go on with on the deal's own dice; finished: to be
    shown, never overwritten); else None.

    Keyed dice depend only on the position, so the continued game meets the dice it would have met. A file
    that holds another deal's game is not this game: a new one is started (and saved there).
    """
    if path is None or not path.exists():
        return None
    try:
        spec, doc = sniff(str(path))
        state = spec.load(doc, str(path))
    except StateFormatError as exc:  # refused, naming what is wrong, and the file left as it is
        raise StateFormatError(f"{exc}; to play, move that file away or save elsewhere with --autosave FILE") from None
    if not isinstance(state, State) or state.rules != deal.rules:
        return None
    return state


def start(args: Any) -> int:
    """Entry point for ``spots play --daily [--date]`` and ``spots play --challenge NAME``."""
    deal, challenge = deal_from(args)
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    tr = i18n.translator(getattr(args, "lang", None) or i18n.from_environment())
    plain = args.plain or not console.is_terminal or (console.encoding or "").lower() not in ("utf-8", "utf8")
    autosave = None if args.autosave == "" else Path(args.autosave or f"spots-{deal.name}.json")
    state = resumed(autosave, deal)
    finished = state is not None and state.is_terminal()  # played already: shown again, the record kept as it is
    table = Table(state or Game(deal.rules).new_initial_state(), [HUMAN], 0, None if finished else autosave)
    table.rng = KeyedDice(deal.key)
    worker = ParWorker(deal, getattr(args, "par_games", None) or PAR_GAMES)
    worker.start()
    game = SoloGame(table, console, worker, challenge, fast=args.fast, plain=plain, tr=tr)
    game.again = _again(args, challenge)
    if challenge is None:  # the public deal of the date: anyone can compute it, so it is for practice
        game.say(tr.gettext("Practice: this is the public deal of {day}, the same on every machine. The daily deal on "
                            "a server is another, keyed by its host's secret.").format(day=deal.name[6:]), "bold")
    if state is not None and finished:
        turns = score_of(state).turns
        game.say(tr.gettext("You finished this deal in {turns} (saved in {file}): here is how it went. To play it "
                            "again, save the new game elsewhere with --autosave FILE.").format(
            turns=tr.ngettext("{n} turn", "{n} turns", turns).format(n=turns), file=autosave), "bold")
        game.summary()
        return 0
    if state is not None:
        game.say(tr.gettext("Continuing your game saved in {file}.").format(file=autosave), "bold")
    return game.play()


def _again(args: Any, challenge: Challenge | None) -> str:
    """The command that continues this solo game (``--load`` would roll fresh dice, not the deal's)."""
    date = getattr(args, "date", None)
    command = f"spots play --challenge {challenge.name}" if challenge else "spots play --daily"
    command += f" --date {date}" if date and not challenge else ""
    return command + (f" --autosave {args.autosave}" if args.autosave else "")
