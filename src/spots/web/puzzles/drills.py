"""Drill my mistakes on the web: a signed-in player's own mistakes, from their analysed games, as a personal deck.

When the coach has made a finished game's report (``web/coach``), each mistake of a seat held by an account is
judged as a puzzle in the coach's own worker process (``spots.puzzles.drill.drill_of``: the same rules as the
shipped set's, so a drill has a clear best move, agreed and confirmed); those that qualify join the account's deck
(``drill_cards``), due at once, then scheduled by FSRS: solved, a drill comes back later each time; missed, soon.
The lobby says how many are due. A guest has no deck (the shipped puzzles only).

``GET /api/puzzles/<game>/drill`` is the longest-overdue drill (or when the next falls due), and
``POST /api/puzzles/<game>/drill/<id>/answer`` answers it: every move's value and the reasons, as a puzzle's answer,
and when it comes back. A drill moves no rating.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ...puzzles.drill import drill_of
from ...puzzles.judge import Puzzle
from ...puzzles.progress import Rated, start_of
from ..accounts.service import account_of
from ..guard import Refused, parse_json, read_body
from ..tables.workers import stoppable

if TYPE_CHECKING:
    from ..coach.service import Coach
    from ..context import Context
    from ..games import GameKind
    from ..tables.rooms import Room

__all__ = ["add_drill_routes", "judge_mistakes"]

log = logging.getLogger("spots.web")
BODY = 1024  # bytes: a move


@stoppable
def judge_mistakes(game: str, rules: Any, moves: list[str], mistakes: list[tuple[int, int, str]], table_id: str
                   ) -> list[tuple[int, str]]:
    """Each (seat, step, move played) judged as a puzzle (runs in the coach's worker): (seat, puzzle line) of those
    that qualify."""
    out = []
    for seat, step, played in mistakes:
        verdict = drill_of(game, rules, moves, step, {"table": table_id, "step": step, "played": played})
        if verdict.puzzle is not None:
            out.append((seat, verdict.puzzle.to_line()))
    return out


class Drills:
    """Fills the decks from the coach's reports (``Coach.on_report``)."""

    def __init__(self, ctx: Context, coach: Coach) -> None:
        self.ctx, self.coach = ctx, coach
        self.tasks: set[asyncio.Task[None]] = set()  # held, or the loop might drop them
        coach.on_report.append(self.reported)

    def reported(self, room: Room, doc: Mapping[str, Any]) -> None:
        """A report was made: the mistakes of the seats people played with an account join their decks."""
        if room.kind.spec.puzzles is None:
            return
        accounts = {s.seat: s.account for s in room.row.seats if s.kind == "human" and s.account}
        wanted = [(p["seat"], m["step"], m["played"]) for p in doc["players"] if p["seat"] in accounts
                  for m in p["mistakes"]]
        if wanted:
            task = asyncio.get_running_loop().create_task(self._fill(room, accounts, wanted))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _fill(self, room: Room, accounts: dict[int, str], wanted: list[tuple[int, int, str]]) -> None:
        hub = self.ctx.hub
        try:
            found = await self.coach.in_worker(judge_mistakes, room.kind.spec.name, room.state.rules,
                                               list(room.state.history()), wanted, room.id)
            for seat, account in accounts.items():
                puzzles = [Puzzle.from_line(line) for s, line in found if s == seat]
                added = await hub.writer.run(hub.store.add_drills, account, room.id, puzzles) if puzzles else 0
                log.info("table %s: seat %d's mistakes: %d of %d make drills, %d new", room.id, seat,
                         len(puzzles), sum(1 for s, _, _ in wanted if s == seat), added)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the deck misses this game's drills; the game and its report are whole
            log.warning("table %s: its mistakes could not be made drills (%s)", room.id, exc)


def add_drill_routes(router: APIRouter, ctx: Context, coach: Coach, kind_of: Callable[[str], GameKind],
                     shown: Callable[[Request, GameKind, Puzzle, Rated], dict[str, Any]],
                     answered: Callable[..., dict[str, Any]]) -> None:
    """The drill deck's routes, on the puzzles' router (before its ``/{puzzle_id}`` routes, which would take them)."""
    Drills(ctx, coach)
    hub = ctx.hub

    def me_of(request: Request) -> Any:
        me = account_of(request)
        if me is None:
            raise Refused(401, "sign-in", "sign in to drill your own mistakes: a guest has the shipped puzzles only")
        return me

    @router.get("/api/puzzles/{game}/drill")
    async def next_drill(request: Request, game: str) -> Response:
        kind, me = kind_of(game), me_of(request)
        puzzle, soonest, size, due = await hub.writer.run(hub.store.next_drill, me.id, game)
        deck = {"due": due, "deck": size, "next_due": _iso(soonest)}
        if puzzle is None:
            return JSONResponse({"puzzle": None, **deck})
        return JSONResponse({"puzzle": shown(request, kind, puzzle, start_of(puzzle)), **deck})

    @router.post("/api/puzzles/{game}/drill/{puzzle_id}/answer")
    async def answer_drill(request: Request, game: str, puzzle_id: str) -> Response:
        kind, me = kind_of(game), me_of(request)
        puzzle = await hub.writer.run(hub.store.drill, me.id, game, puzzle_id)
        if puzzle is None:
            raise Refused(404, "unknown-drill", f"there is no drill {puzzle_id!r} in your {game} deck")
        body = parse_json(await read_body(request, BODY, ctx.limits.body_timeout))
        move = body.get("move") if isinstance(body, dict) else None
        if not isinstance(move, str) or move not in dict(puzzle.values):
            raise Refused(400, "bad-move", f"send {{\"move\": one of {', '.join(m for m, _ in puzzle.values)}}}")
        solved = move in puzzle.answers
        again = await hub.writer.run(hub.store.review_drill, me.id, game, puzzle.id, solved)
        due = (await hub.writer.run(hub.store.drills_due, me.id, game)).get(game, 0)
        solver = (await hub.writer.run(hub.store.solver_rating, me.id, game))[0]  # a drill moves no rating
        doc = answered(request, kind, puzzle, move, solved, solver, solver, start_of(puzzle), False)
        return JSONResponse({**doc, "again": _iso(again), "due": due})


def _iso(when: float | None) -> str | None:
    return None if when is None else datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds")

