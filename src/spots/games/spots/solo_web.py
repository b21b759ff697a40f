"""Solo every day: the Daily page, a daily deal's or a challenge's table, and its race against the bot.

Spots' own pages in the web app (its ``WebView.routes``; the app names no game). A solo table is a normal table
(the player alone) whose dice are the deal's keyed dice, so the player meets the dice everyone meets that day and
the bot met in its race (``par.py``). Par is worked out once per deal in a process of its own at a lower
priority, one par at a time and at most ``PAR_QUEUE`` waiting (cached on disk, ``SPOTS_PAR_CACHE``), never in the
server's shared thread pool nor under its interpreter lock, so a flood of deals can neither hold up a sign-in nor
slow a table's moves; and only for the deals that are open (today's and the ``PAST_DAYS``
before, the challenges, or the deal of a table being played). Until par is known the race panel says so and asks
again. A guest's bests and streaks are the browser's (``web/static/solo.js``, localStorage); the board of the day
is the server's: the signed-in players' games it played on the deal, scored from their stored moves
(``solo_store.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from ... import i18n
from ...core.commitment import Commitment, digest
from ...web.toolkit import (
    NICE,
    Refused,
    Unavailable,
    account_of,
    clean_name,
    client_of,
    hosted,
    read_body,
    request_lang,
)
from . import TILES, Rules, State, par_worker, replay, solo_store
from .bots import BOTS
from .daily import (
    CHALLENGES,
    MEDAL_WORDS,
    Deal,
    challenge_named,
    daily_deal,
    deal_named,
    medal,
    parse_day,
    score_of,
    utc_today,
)
from .errors import RulesError
from .keyed import KeyedDice
from .par import PAR_GAMES, Par, RaceTurn, cached_par, par_bot
from .solo_store import BoardRow
from .tricks import N_

log = logging.getLogger("spots.web.solo")  # the name the logs have always had
SOLO_FORM = 1024  # bytes: a name and a date or a challenge
PLAYER = N_("Solo player")
PAST_DAYS = 30  # the daily deals a player may still play (today's and the month before)
PAR_QUEUE = 8  # deals waiting for their par at most; a deal asked for beyond that waits to be asked again


def par_games() -> int:
    """Games in a par: ``SPOTS_PAR_GAMES`` (a test's small number) or the default."""
    text = os.environ.get("SPOTS_PAR_GAMES", "")
    return int(text) if text.isdigit() and int(text) >= 2 else PAR_GAMES


def bot_of_par(deal: Deal) -> str | None:
    """The bot a par is set by: ``SPOTS_PAR_BOT`` where it names a bot (a small server's cheaper par, the tests'
    quick one), else None: the strongest (``par_bot``). An unknown name is logged once with the bots there are."""
    name = os.environ.get("SPOTS_PAR_BOT", "")
    if name in BOTS:
        return name
    if name and name not in _REFUSED:
        _REFUSED.add(name)
        log.error("SPOTS_PAR_BOT=%s is not a bot (the bots: %s); par is set by %s", name, ", ".join(BOTS),
                  par_bot(deal))
    return None


_REFUSED: set[str] = set()


class Pars:
    """Each deal's par, worked out once, one deal at a time in a process of its own (``par_worker``), watched by
    a daemon thread, so a stop never waits for it (the cache file is written whole or not at all); asked again
    while it is worked out, it says so."""

    def __init__(self, waiting: int = PAR_QUEUE) -> None:
        self.known: dict[str, Par] = {}
        self.working: set[str] = set()  # deals queued or being worked out
        self.races: dict[str, list[RaceTurn]] = {}  # the bot's race, known before the rest of par
        self.played: dict[str, int] = {}  # games of a par being worked out that are done (the progress shown)
        self.waiting: queue.Queue[Deal] = queue.Queue(waiting)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def peek(self, deal: Deal) -> Par | None:
        """The par if known (here or in the cache), without working it out: what the Daily page shows."""
        found = self.known.get(deal.name) or cached_par(deal, par_games(), bot_of_par(deal))
        if found is not None:
            self.known[deal.name] = found
        return found

    def get(self, deal: Deal) -> Par | None:
        """The par if known; else queue it to be worked out (once; not while the queue is full) and give None."""
        if self.peek(deal) is not None:
            return self.known[deal.name]
        with self._lock:
            if deal.name in self.working:
                return None
            try:
                self.waiting.put_nowait(deal)
            except queue.Full:
                return None  # a flood of deals: this one is queued when it is asked for again
            self.working.add(deal.name)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="spots-par", daemon=True)
                self._thread.start()
        return None

    def _work(self) -> None:
        while True:
            deal = self.waiting.get()
            try:
                self._work_out(deal)
            except (OSError, ValueError, KeyError, TypeError) as exc:  # no worker, or a worker that said nonsense
                log.error("par of %s could not be worked out: %r", deal.name, exc)
            finally:
                with self._lock:
                    self.working.discard(deal.name)

    def _work_out(self, deal: Deal) -> None:
        """Start a worker for the deal, take its race and then its par (each one assignment, read by the server's
        loop). The worker has its own session, so a Ctrl-C at the terminal is the server's alone to handle."""
        command = [sys.executable, "-m", "spots.games.spots.par_worker"]
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              start_new_session=True) as worker:
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write(par_worker.request(deal, par_games(), NICE, bot_of_par(deal)))
            worker.stdin.flush()
            for line in worker.stdout:
                answer = json.loads(line)
                if "race" in answer:
                    self.races[deal.name] = [RaceTurn(**turn) for turn in answer["race"]]
                elif "played" in answer:
                    self.played[deal.name] = int(answer["played"])
                elif "par" in answer:
                    self.known[deal.name] = Par.from_dict(answer["par"])
                else:
                    log.error("par of %s could not be worked out: %s", deal.name, answer.get("error"))
            if deal.name not in self.known:
                log.error("par of %s could not be worked out: its worker ended (%s)", deal.name, worker.wait())


PARS = Pars()
PARS_AHEAD = 2  # days whose daily par is worked out ahead: today's and tomorrow's


def pars_ahead() -> int:
    """Days worked out ahead: ``SPOTS_PARS_AHEAD`` (0: none, as in the tests, whose servers start by the hundred)."""
    text = os.environ.get("SPOTS_PARS_AHEAD", "")
    return int(text) if text.isdigit() else PARS_AHEAD


async def _work_out_pars_ahead(app: FastAPI) -> None:
    """Queue today's and tomorrow's daily par at start-up, and again every few minutes (the queue may have been
    full) and just after each midnight (UTC), so the day's par is known before its first player comes."""
    while True:
        try:
            secret = await secret_of(app)
        except Refused:
            await asyncio.sleep(60)
            continue
        today = utc_today()
        for days in range(pars_ahead()):
            PARS.get(daily_deal(today + timedelta(days=days), secret))
        midnight = datetime.combine(today + timedelta(days=1), time(), UTC)
        await asyncio.sleep(min(600.0, max(1.0, (midnight - datetime.now(UTC)).total_seconds() + 1)))


@contextlib.asynccontextmanager
async def pars_ahead_while_serving(app: FastAPI) -> AsyncIterator[None]:
    """The router's lifespan, inside the app's: the daily pars worked out ahead while the server runs."""
    task = asyncio.create_task(_work_out_pars_ahead(app)) if pars_ahead() > 0 else None
    try:
        yield
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


router = APIRouter(lifespan=pars_ahead_while_serving)


def par_json(par: Par | None) -> dict[str, Any] | None:
    if par is None:
        return None
    return {"value": par.value, "mean": par.mean, "low": par.low, "high": par.high, "bot": par.bot,
            "games": par.games, "exact": par.exact}


def my_turns(state: State) -> list[dict[str, int]]:
    """The player's dogs scored and busts at the end of each finished turn (and now), replayed from the game."""
    probe = State(state.rules)
    rows: list[dict[str, int]] = []

    def row(turn: int) -> dict[str, int]:
        return {"turn": turn, "dogs": probe.players[0].scored_count(), "busts": probe.busts[0]}

    for move in state.history():
        turn = probe.turn
        probe.apply_trusted(move)
        if turn >= 1 and probe.turn != turn:
            rows.append(row(turn))
    if probe.is_terminal():  # the last turn ended the game: the turn count stays
        rows.append(row(probe.turn))
    return rows


def race_json(deal: Deal, state: State | None, tr: Any) -> dict[str, Any]:
    """What the race panel shows: par, the player's turns, the bot's turns as far as the player has played
    (nothing of the deal's future: the bot met the same dice), and, at the end, the score."""
    par = PARS.get(deal)
    out: dict[str, Any] = {"deal": deal.name, "par": par_json(par), "pending": par is None,
                           "bot_name": bot_of_par(deal) or par_bot(deal),
                           "tricks": [tr(TILES[t].title) for t in deal.rules.tricks], "target": deal.rules.target}
    if par is None:  # how far the bot's games have got (what a waiting player is shown)
        out["progress"] = {"played": PARS.played.get(deal.name, 0), "games": par_games()}
    race = par.race if par is not None else PARS.races.get(deal.name)
    if race is not None and state is not None:  # the bot's turns as far as the player's own (all, once over)
        shown = len(race) if state.is_terminal() else len(my_turns(state))
        out["bot"] = [{"turn": t.turn, "dogs": t.dogs, "busts": t.busts} for t in race[:shown]]
    challenge = CHALLENGES.get(deal.name)
    if challenge is not None:
        out["challenge"] = {"title": tr(challenge.title), "goal": tr(challenge.goal.text).format(n=challenge.goal.n)}
    if state is not None:
        out["you"] = my_turns(state)
        if state.is_terminal():
            score = score_of(state)
            out["score"] = {"turns": score.turns, "busts": score.busts, "reached": score.reached}
            if challenge is not None and par is not None:
                won = medal(challenge, score, par.value)
                out["medal"] = won
                out["medal_word"] = tr(MEDAL_WORDS[won]) if won else None
    return out


async def host_secret(request: Request) -> str:
    """The secret that keys this server's daily deals (read from the database once per app)."""
    return await secret_of(request.app)


async def secret_of(app: FastAPI) -> str:
    state = app.state
    if getattr(state, "daily_secret", None) is None:
        hub = state.hub
        try:
            state.daily_secret = await hub.writer.run(solo_store.host_secret, hub.store)
        except Unavailable as exc:
            raise Refused(503, "unavailable", f"the daily deal cannot be dealt just now: {exc.why}",
                          exc.retry) from None
    return str(state.daily_secret)


def day_key_shown(day: date) -> bool:
    """A daily deal's key is shown once the day is over everywhere (UTC), so its games can be checked."""
    return day < utc_today()


def deal_commitment(deal: Deal, day: date) -> Commitment:
    """A daily deal's committed key: the same fingerprint for every table of the day, its key shown the day after."""
    return Commitment(digest(deal.key), (), deal.key, deal=True, reveal_from=(day + timedelta(days=1)).isoformat())


async def new_solo_table(request: Request, deal: Deal, name: str | None, day: date | None = None) -> str:
    """A table for one player on the deal's keyed dice (a signed-in player's seat is the account's, for the
    board of the day); returns the seat's link token. ``day``: a daily deal's, whose key is committed to."""
    tr = i18n.translator(request_lang(request)).gettext
    me = account_of(request)
    seats = [{"kind": "human", "bot": None, "name": me.name if me else clean_name(name, "") or tr(PLAYER)}]
    kind = hosted()["spots"]
    hub = request.app.state.hub
    room = await hub.create(kind, deal.rules, seats, client=client_of(request), dice=KeyedDice(deal.key),
                            commitment=None if day is None else deal_commitment(deal, day))
    try:
        await hub.writer.run(solo_store.add_solo_game, hub.store, room.id, deal.name)
        accounts = request.app.state.ctx.accounts
        if me is not None and accounts is not None:
            await accounts.bind(room, 0, me)
    except Unavailable as exc:  # the game is played all the same; only the board will not know it
        log.warning("solo table %s of %s not recorded for the board: %s", room.id, deal.name, exc.why)
    PARS.get(deal)  # par and the race are worked out while the player plays
    return str(room.row.seats[0].token)


async def board_of(request: Request, deal: Deal) -> list[BoardRow] | None:
    """The board of the day: each signed-in player's best on the deal (None where there are no accounts).

    Games finished since the last look are scored first, from their stored moves: only what the server played.
    """
    if request.app.state.ctx.accounts is None:
        return None
    hub = request.app.state.hub
    try:
        for table_id in await hub.writer.run(solo_store.unscored_solo_games, hub.store, deal.name):
            row = await hub.writer.run(hub.store.load_table, table_id)
            if row is None or not isinstance(row.rules, dict):
                continue
            score = score_of(replay(row.moves, Rules.from_dict(row.rules)))
            await hub.writer.run(solo_store.set_solo_result, hub.store, table_id, score.turns, score.busts)
        return await hub.writer.run(solo_store.solo_board, hub.store, deal.name)
    except Unavailable:
        return None


async def read_form(request: Request) -> dict[str, str]:
    raw = await read_body(request, SOLO_FORM)
    return {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(request: Request) -> HTMLResponse:
    """Today's deal with its par, the challenges, and the player's own board (filled in by solo.js)."""
    tr = i18n.translator(request_lang(request)).gettext
    today = utc_today()
    secret = await host_secret(request)
    deal = daily_deal(today, secret)
    par = par_json(PARS.peek(deal))
    challenges = [{"name": c.name, "title": tr(c.title), "goal": tr(c.goal.text).format(n=c.goal.n),
                   "par": par_json(PARS.peek(c.deal))} for c in CHALLENGES.values()]
    return request.app.state.ctx.page(request, "games/spots/daily.html", day=today.isoformat(), deal=deal.name, par=par,
                                      tricks=[tr(TILES[t].title) for t in deal.rules.tricks], target=deal.rules.target,
                                      challenges=challenges, board=await board_of(request, deal),
                                      signed_in=account_of(request) is not None, commitment=digest(deal.key),
                                      yesterday=daily_deal(today - timedelta(days=1), secret).key)


def closed_day(day: date) -> str:
    """Why a daily deal is not open (empty if it is): only today's and the ``PAST_DAYS`` days before it are."""
    today = utc_today()
    if today - timedelta(days=PAST_DAYS) <= day <= today:
        return ""
    return f"the daily deals open are today's ({today}) and the {PAST_DAYS} days before it, not {day}"


@router.post("/daily")
async def play_daily(request: Request) -> RedirectResponse:
    """Play a daily deal: today's, or one of the last ``PAST_DAYS`` days' (``date``)."""
    form = await read_form(request)
    try:
        day = parse_day(form.get("date"))
    except RulesError as exc:
        raise Refused(400, "bad-date", str(exc)) from None
    closed = closed_day(day)
    if closed:
        raise Refused(400, "bad-date", closed)
    deal = daily_deal(day, await host_secret(request))
    token = await new_solo_table(request, deal, form.get("name"), day)
    return RedirectResponse(f"/play/{token}?solo={deal.name}", status_code=303)


@router.post("/challenge")
async def play_challenge(request: Request) -> RedirectResponse:
    form = await read_form(request)
    try:
        challenge = challenge_named(form.get("challenge", ""))
    except RulesError as exc:
        raise Refused(400, "bad-challenge", str(exc)) from None
    token = await new_solo_table(request, challenge.deal, form.get("name"))
    return RedirectResponse(f"/play/{token}?solo={challenge.name}", status_code=303)


@router.get("/api/solo/{name}")
async def solo_api(request: Request, name: str, table: str = "") -> JSONResponse:
    """The race panel's data for a deal; with ``table``, the player's own turns on that table too."""
    tr = i18n.translator(request_lang(request)).gettext
    try:
        deal = deal_named(name, await host_secret(request))
    except RulesError as exc:
        return JSONResponse({"error": "unknown-deal", "message": str(exc)}, status_code=404)
    state = None
    closed = closed_day(parse_day(name.removeprefix("daily-"))) if name.startswith("daily-") else ""
    if closed and not table:  # a table being played keeps its deal's race, whatever its date
        return JSONResponse({"error": "bad-date", "message": closed}, status_code=400)
    if table:
        room = await request.app.state.hub.table(table)
        if room is None or room.state.rules != deal.rules:
            return JSONResponse({"error": "unknown-table",
                                 "message": f"table {table!r} is not a game of the solo deal {name}"}, status_code=404)
        state = room.state
    out = race_json(deal, state, tr)
    if name.startswith("daily-"):  # the day's fingerprint, and its key once the day is over
        out["commitment"] = digest(deal.key)
        if day_key_shown(parse_day(name.removeprefix("daily-"))):
            out["key"] = deal.key
    return JSONResponse(out)

