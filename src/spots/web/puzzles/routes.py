"""The puzzle page and its API: a position drawn on the game's own table, its answer, every move's value and why.

``GET /puzzles`` is the page (``?game=``, ``?id=`` a given puzzle, ``?theme=``); its script asks
``GET /api/puzzles/<game>/next`` (``theme``, ``rating``: a guest's own, kept in their browser; ``after``: the one
just played), ``/daily`` (the puzzle of the day: the same for everyone on a UTC date) or ``/<id>``, and sends
``POST /api/puzzles/<game>/<id>/answer`` with ``{"move": ...}`` (a guest adds ``"solver": [rating, rd, vol]``).
A puzzle's answer is never sent before the move is. A signed-in solver's first try of a puzzle moves both ratings
in the database; a guest's moves only the guest's own, which their browser keeps (a guest cannot move a puzzle's).
"""

from __future__ import annotations

import bisect
import hashlib
import math
import random
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ... import i18n
from ...core import games
from ...i18n import N_
from ...puzzles.build import shipped
from ...puzzles.judge import Puzzle, kit_of
from ...puzzles.progress import SOLVER, Rated, rate, start_of
from ..accounts.service import account_of
from ..context import request_lang
from ..games import GameKind, hosted
from ..guard import Refused, client_of, parse_json, read_body
from ..tables.labels import UNNAMED_PERSON
from .drills import add_drill_routes

if TYPE_CHECKING:
    from ..coach.service import Coach
    from ..context import Context

BODY = 1024  # bytes: a move and a rating
RUN_LENGTH = 200  # puzzles a streak or a timed run offers, easiest first
RUNS = {"streak": (800, 15), "timed": (600, 12)}  # each run's first rating and its step up per puzzle
RUN_SECONDS = 180  # a timed run's clock
MISS_COSTS = 10  # seconds a miss takes off it
PRACTICE_DICE = random.SystemRandom()  # a played-out puzzle's dice: the OS's entropy, committed to nobody
NEAREST = 12  # the next puzzle is drawn from this many untried ones nearest the solver's rating
DAILY_RATINGS = (1300, 1900)  # the puzzle of the day is one of middling difficulty
YOU = N_("You")


class Shelf:
    """Each hosted game's shipped puzzles, by id: loaded once, on first use."""

    def __init__(self) -> None:
        self._sets: dict[str, dict[str, Puzzle]] | None = None
        self._themes: dict[str, Mapping[str, str]] = {}

    def themes(self, game: str) -> Mapping[str, str]:
        """The game's themes and their words (a message id each), from its puzzle kit."""
        if game not in self._themes:
            self._themes[game] = kit_of(games.get(game)).theme_words
        return self._themes[game]

    def sets(self) -> dict[str, dict[str, Puzzle]]:
        if self._sets is None:
            self._sets = {name: {p.id: p for p in shipped(name)} for name, kind in hosted().items()
                          if kind.spec.puzzles is not None}
        return self._sets

    def of(self, game: str) -> dict[str, Puzzle]:
        found = self.sets().get(game)
        if not found:
            raise Refused(404, "no-puzzles", f"there are no puzzles for {game!r}; the games with puzzles: "
                          f"{', '.join(n for n, s in self.sets().items() if s) or 'none'}")
        return found

    def puzzle(self, game: str, puzzle_id: str) -> Puzzle:
        found = self.of(game).get(puzzle_id)
        if found is None:
            raise Refused(404, "unknown-puzzle", f"there is no {game} puzzle {puzzle_id!r}")
        return found

    def daily(self, game: str, day: str) -> Puzzle:
        """The day's puzzle: a middling one, the same for everyone on that date."""
        middling = sorted(p.id for p in self.of(game).values() if DAILY_RATINGS[0] <= p.rating <= DAILY_RATINGS[1])
        index = int(hashlib.sha256(f"{game}:{day}".encode()).hexdigest(), 16) % len(middling)
        return self.of(game)[middling[index]]

    def run(self, game: str, first: int, step: int, tried: set[str]) -> list[str]:
        """A streak's or timed run's puzzles: the i-th drawn at random among the few nearest ``first + i * step``
        (untried ones while there are any), none twice."""
        pool = sorted(self.of(game).values(), key=lambda p: (p.rating, p.id))
        ratings = [p.rating for p in pool]
        taken: set[str] = set()
        out = []
        for i in range(min(RUN_LENGTH, len(pool))):
            target = first + step * i
            centre = bisect.bisect_left(ratings, target)
            near = sorted((p for p in pool[max(0, centre - 40):centre + 40] if p.id not in taken),
                          key=lambda p: (p.id in tried, abs(p.rating - target)))
            if not near:  # every puzzle near it taken: the nearest left anywhere
                near = sorted((p for p in pool if p.id not in taken), key=lambda p: abs(p.rating - target))
            pick = random.SystemRandom().choice(near[:NEAREST // 2])
            taken.add(pick.id)
            out.append(pick.id)
        return out

    def next(self, game: str, rating: float, theme: str | None, tried: set[str], after: str | None) -> Puzzle:
        """An untried puzzle (of the theme) near the rating, drawn at random among the nearest."""
        pool = [p for p in self.of(game).values() if (theme is None or theme in p.themes) and p.id != after]
        if not pool:
            raise Refused(404, "no-puzzles", f"no puzzle has the theme {theme!r}")
        fresh = [p for p in pool if p.id not in tried] or pool
        fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
        return random.SystemRandom().choice(fresh[:NEAREST])


def _solver_of(body: dict[str, Any]) -> Rated:
    """A guest's rating as their browser sends it, checked (a new solver where none is sent)."""
    sent = body.get("solver")
    if sent is None:
        return Rated(*SOLVER)
    ok = (isinstance(sent, list) and len(sent) == 3 and all(isinstance(x, int | float) for x in sent)
          and all(math.isfinite(x) for x in sent))
    if not ok or not (0 <= sent[0] <= 4000 and 30 <= sent[1] <= 350 and 0 < sent[2] <= 0.2):
        raise Refused(400, "bad-solver", "'solver' must be [rating 0-4000, deviation 30-350, volatility 0-0.2]")
    return Rated(*map(float, sent))


def routes(ctx: Context, coach: Coach) -> APIRouter:
    router = APIRouter()
    shelf = Shelf()
    hub = ctx.hub

    def kind_of(game: str) -> GameKind:
        kind = hosted().get(game)
        if kind is None or kind.spec.puzzles is None:
            shelf.of(game)  # says which games have puzzles
        assert kind is not None
        return kind

    def shown(request: Request, kind: GameKind, puzzle: Puzzle, rating: Rated) -> dict[str, Any]:
        return shown_puzzle(request, kind, puzzle, rating, shelf.themes(puzzle.game))

    async def puzzle_rating(puzzle: Puzzle) -> Rated:
        return await hub.writer.run(hub.store.puzzle_rating, puzzle.id, start_of(puzzle))

    @router.get("/puzzles", response_class=HTMLResponse)
    async def page(request: Request) -> HTMLResponse:
        game = request.query_params.get("game", "spots")
        kind = kind_of(game)
        me = account_of(request)
        solver = (await hub.writer.run(hub.store.solver_rating, me.id, game))[0] if me is not None else None
        bests = await hub.writer.run(hub.store.best_of, me.id, game) if me is not None else {}
        mode = request.query_params.get("mode", "rated")
        tr = i18n.translator(request_lang(request))
        return ctx.page(request, "puzzles.html", game=game, look=kind.look(tr.gettext),
                        themes=[(t, tr.gettext(w)) for t, w in shelf.themes(game).items()],
                        rating=round(solver.rating) if solver else None, puzzle=request.query_params.get("id", ""),
                        theme=request.query_params.get("theme", ""), bests=bests,
                        mode=mode if mode in ("rated", "drill", *RUNS) else "rated")

    @router.get("/api/puzzles/{game}/daily")
    async def daily(request: Request, game: str) -> Response:
        kind = kind_of(game)
        puzzle = shelf.daily(game, datetime.now(UTC).date().isoformat())
        return JSONResponse(shown(request, kind, puzzle, await puzzle_rating(puzzle)))

    @router.get("/api/puzzles/{game}/next")
    async def next_puzzle(request: Request, game: str) -> Response:
        kind = kind_of(game)
        theme = request.query_params.get("theme") or None
        if theme is not None and theme not in shelf.themes(game):
            raise Refused(400, "bad-theme", f"unknown theme {theme!r}; the themes: {', '.join(shelf.themes(game))}")
        me = account_of(request)
        if me is not None:
            rating = (await hub.writer.run(hub.store.solver_rating, me.id, game))[0].rating
            tried = await hub.writer.run(hub.store.tried_puzzles, me.id)
        else:
            text = request.query_params.get("rating", "1500")
            if not text.isdigit() or not 0 <= int(text) <= 4000:
                raise Refused(400, "bad-rating", "'rating' must be a whole number from 0 to 4000")
            rating, tried = float(text), set()
        puzzle = shelf.next(game, rating, theme, tried, request.query_params.get("after"))
        return JSONResponse(shown(request, kind, puzzle, await puzzle_rating(puzzle)))

    @router.get("/api/puzzles/{game}/run")
    async def run(request: Request, game: str) -> Response:
        """A streak's or a timed run's puzzles, easiest first, each harder (tried ones left out where they can be)."""
        kind_of(game)
        mode = request.query_params.get("mode", "")
        if mode not in RUNS:
            raise Refused(400, "bad-mode", f"'mode' must be one of: {', '.join(RUNS)}")
        me = account_of(request)
        tried = await hub.writer.run(hub.store.tried_puzzles, me.id) if me is not None else set()
        return JSONResponse({"mode": mode, "seconds": RUN_SECONDS if mode == "timed" else None,
                             "miss_costs": MISS_COSTS if mode == "timed" else None,
                             "puzzles": shelf.run(game, *RUNS[mode], tried)})

    @router.post("/api/puzzles/{game}/best")
    async def best(request: Request, game: str) -> Response:
        """A signed-in solver's streak or timed run ended: their best, kept (a guest's stays in their browser)."""
        kind_of(game)
        me = account_of(request)
        if me is None:
            raise Refused(401, "sign-in", "sign in to keep your best streak and run (a guest's stays in the browser)")
        body = parse_json(await read_body(request, BODY, ctx.limits.body_timeout))
        ok = isinstance(body, dict) and body.get("mode") in RUNS and isinstance(body.get("score"), int) \
            and not isinstance(body.get("score"), bool) and 0 <= body["score"] <= RUN_LENGTH
        if not ok:
            raise Refused(400, "bad-body", f'send {{"mode": "streak" or "timed", "score": 0 to {RUN_LENGTH}}}')
        kept = await hub.writer.run(hub.store.set_best, me.id, game, body["mode"], body["score"])
        return JSONResponse({"mode": body["mode"], "best": kept})

    add_drill_routes(router, ctx, coach, kind_of, shown, answer_of)

    @router.post("/api/puzzles/{game}/{puzzle_id}/play")
    async def play(request: Request, game: str, puzzle_id: str) -> Response:
        """"Play it out from here": a practice table at the puzzle's position, the solver against the game's
        strongest lobby bot (unrated; its dice from here on are the server's, with no commitment)."""
        kind = kind_of(game)
        me = account_of(request)
        found = shelf.of(game).get(puzzle_id)
        if found is None and me is not None:
            found = await hub.writer.run(hub.store.drill, me.id, game, puzzle_id)
        if found is None:
            raise Refused(404, "unknown-puzzle", f"there is no {game} puzzle {puzzle_id!r}")
        state = kind.spec.load_state(found.state)
        bot = [b.name for b in kind.spec.offered_bots() if b.name in kind.bots][-1]  # the strongest offered
        seats: list[dict[str, Any]] = [{"kind": "bot", "bot": bot, "name": ""}
                                       for _ in range(kind.spec.seats(state.rules))]
        seats[found.seat] = {"kind": "human", "bot": None, "name": me.name if me else "", "open": False,
                             "claimed": True, **({"account": me.id} if me else {})}
        room = await hub.create(kind, state.rules, seats, client_of(request), dice=PRACTICE_DICE,
                                opening=state.history())
        token = room.row.seats[found.seat].token
        return JSONResponse({"id": room.id, "link": ctx.link(f"/play/{token}")}, status_code=201)

    @router.get("/api/puzzles/{game}/{puzzle_id}")
    async def one(request: Request, game: str, puzzle_id: str) -> Response:
        kind = kind_of(game)
        puzzle = shelf.puzzle(game, puzzle_id)
        return JSONResponse(shown(request, kind, puzzle, await puzzle_rating(puzzle)))

    @router.post("/api/puzzles/{game}/{puzzle_id}/answer")
    async def answer(request: Request, game: str, puzzle_id: str) -> Response:
        kind = kind_of(game)
        puzzle = shelf.puzzle(game, puzzle_id)
        body = parse_json(await read_body(request, BODY, ctx.limits.body_timeout))
        if not isinstance(body, dict) or not isinstance(body.get("move"), str):
            raise Refused(400, "bad-body", 'send {"move": "<one of the puzzle\'s moves>"}')
        values = dict(puzzle.values)
        move = body["move"]
        if move not in values:
            raise Refused(400, "bad-move", f"{move!r} is not a move of this puzzle; its moves: {', '.join(values)}")
        mode = body.get("mode", "rated")
        if mode != "rated" and mode not in RUNS:
            raise Refused(400, "bad-mode", f"'mode' must be rated (the default) or one of: {', '.join(RUNS)}")
        solved, rated = move in puzzle.answers, mode == "rated"
        me = account_of(request)
        if me is not None:  # a streak's or run's try moves no rating, but the puzzle counts as tried
            before, after, theirs, counted = await hub.writer.run(hub.store.rate_try, me.id, game, puzzle.id,
                                                                  start_of(puzzle), solved, rated)
        else:  # a guest: their own rating moves, the puzzle's stays
            before, theirs, counted = _solver_of(body), await puzzle_rating(puzzle), rated
            after = rate(before, theirs, solved)[0] if rated else before
        return JSONResponse(answer_of(request, kind, puzzle, move, solved, before, after, theirs, counted))

    return router


def shown_puzzle(request: Request, kind: GameKind, puzzle: Puzzle, rating: Rated, themes: Mapping[str, str]
                 ) -> dict[str, Any]:
    """What the page draws: the position on the game's table, the moves to choose from; never the answer."""
    tr = i18n.translator(request_lang(request))
    state = kind.spec.load_state(puzzle.state)
    names = _names(kind, state, puzzle, tr)
    seats = [{"name": n, "kind": "human", "bot": None, "claimed": True, "online": True} for n in names]
    view = kind.web.view(state, seats, len(state.history()), tr, puzzle.seat, False)
    return {"id": puzzle.id, "game": puzzle.game, "seat": puzzle.seat, "rating": round(rating.rating),
            "themes": [tr.gettext(themes.get(t, t)) for t in puzzle.themes], "view": view,
            "moves": [{"move": m, "label": kind.web.label(state, m, names, tr)} for m in state.legal_actions()]}


def _names(kind: GameKind, state: Any, puzzle: Puzzle, tr: Any) -> list[str]:
    """The seats as the puzzle shows them: "You" for the seat to move, "Player N" for the others."""
    return [tr.gettext(YOU) if s == puzzle.seat else tr.gettext(UNNAMED_PERSON).format(n=s + 1)
            for s in range(kind.spec.seats(state.rules))]


def answer_of(request: Request, kind: GameKind, puzzle: Puzzle, move: str, solved: bool, before: Rated, after: Rated,
            theirs: Rated, counted: bool) -> dict[str, Any]:
    """Every move's value (best first) with its words, the answers, the check, and the ratings after the try."""
    tr = i18n.translator(request_lang(request))
    state = kind.spec.load_state(puzzle.state)
    names = _names(kind, state, puzzle, tr)
    reasons = []
    # why the best move beats the one chosen, or where it was chosen, the next best
    other = move if not solved else next((m for m, _ in puzzle.values if m not in puzzle.answers), None)
    if kind.spec.coach is not None and other is not None:
        reasons = [tr.gettext(text).format(**fields)
                   for text, fields in kind.spec.coach().reasons(state, other, puzzle.best)]
    return {
        "solved": solved, "move": move, "best": puzzle.best, "answers": list(puzzle.answers),
        "values": [{"move": m, "label": kind.web.label(state, m, names, tr), "win": round(v, 4)}
                   for m, v in puzzle.values],
        "margin": round(puzzle.margin, 4), "checked": round(puzzle.checked, 4), "error": round(puzzle.checked_error, 4),
        "reasons": reasons, "counted": counted,
        "solver": {"rating": round(after.rating), "change": round(after.rating - before.rating),
                   "kept": [round(after.rating, 2), round(after.rd, 2), round(after.vol, 6)]},
        "puzzle_rating": round(theirs.rating),
    }
