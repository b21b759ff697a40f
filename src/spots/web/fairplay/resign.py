"""Resigning: a player ends their own game at once, and at a rated table finishes last.

Why a stand-in and not an end to the table: in a game of three or four the others may want to play on, as they
would at a physical table when someone has to go. So a resigned seat is played to the end by the same quick bot
that stands in for a player out of time, its moves are not the person's (the coach leaves them out), and the
person is rated last whatever the board says (the first to resign last of all). When nobody who has not resigned
is left but one seat, or no person is, the game is over for everyone who counts: every seat is then played out by
stand-ins at once, so the table ends with a real final position (a replay, the dice revealed, the coach's report
of the moves people made). A resignation is final: nothing the resigned seat sends acts any more.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ... import i18n
from ...i18n import N_
from ..clocks.timing import stand_in_bot
from ..guard import socket_error
from ..store import TableRow
from ..writer import Unavailable

if TYPE_CHECKING:
    from ..tables.rooms import Room

RESIGNED = N_("you resigned this game: a stand-in plays your seat to the end")


def covered(row: TableRow, moves: int) -> list[tuple[int, int, int]]:
    """The record's stand-in ranges from resignations (``[seat, first, last]`` over ``moves`` moves): a resigned
    seat's from its resignation on, and once the game is played out, every other person's from then on."""
    if moves == 0:
        return []
    out = [(seat, at, moves - 1) for seat, at in row.resigned if at < moves]
    if row.played_out():
        last = row.resigned[-1][1]
        out += [(s.seat, last, moves - 1) for s in row.seats
                if s.kind == "human" and s.seat not in row.resigned_seats() and last < moves]
    return out


def seat_stand_ins(room: Room) -> None:
    """Put the stand-ins of resigned seats (every person's, once played out) in the room's bot seats."""
    for s in room.row.seats:
        if s.kind == "human" and room.row.resign_stand_in(s.seat):
            room.bots[s.seat] = stand_in_bot(room)


def words(room: Room, lang: str) -> list[str]:
    """Who resigned, in words (shown at the table while the game goes on and under its end)."""
    _ = i18n.translator(lang).gettext
    names = room.names_in(lang)
    said = (_("{who} resigned: rated last, whatever the board says.") if room.row.rated else
            _("{who} resigned; a stand-in plays their seat to the end."))
    return [said.format(who=names[seat]) for seat in room.row.resigned_seats()]


def out_of_time(room: Room) -> list[int]:
    """The seats that ran out of time and had not resigned (a resignation is what counts for them), the first
    first."""
    ran_out = room.timekeeper.clock.ran_out if room.timekeeper is not None else []
    return [seat for seat in ran_out if seat not in room.row.resigned_seats()]


def absences(room: Room, lang: str) -> list[str]:
    """Once the game is over, who resigned or ran out of time, in words: at a rated table they are rated last
    whatever the board says (a stand-in finished their game)."""
    if not room.state.is_terminal():
        return []
    _ = i18n.translator(lang).gettext
    names = room.names_in(lang)
    said = (_("{who} ran out of time: rated last, whatever the board says.") if room.row.rated else
            _("{who} ran out of time; a stand-in finished the game for them."))
    return [*words(room, lang), *(said.format(who=names[seat]) for seat in out_of_time(room))]


async def resign(room: Room, seat: int, lang: str) -> dict[str, Any] | None:
    """A seat resigns (socket ``resign``): stored first, then the stand-ins take over and everyone is told."""
    _ = i18n.translator(lang).gettext
    async with room.lock:
        if room.state.is_terminal():
            return socket_error("game-over", _("the game is over; there is nothing to resign"))
        if seat in room.row.resigned_seats():
            return socket_error("resigned", _(RESIGNED))
        before = room.row.resigned
        after = [*before, (seat, len(room.log))]
        try:
            stored = await room.hub.writer.run(room.hub.store.resign, room.id, text_of(before), text_of(after))
        except Unavailable as exc:
            return socket_error("server-error", _("the server could not save this just now; try again"),
                                retry_after=exc.retry)
        if not stored:  # another process moved the table on or took a resignation first
            return socket_error("stale", _("the table has just moved on; try again"))
        room.row.resigned = after
        seat_stand_ins(room)
        if room.timekeeper is not None:  # the resigned seat's clock stops; it runs for whoever is to move now
            await room.timekeeper.restart()
        room.changed()
        room.schedule_bot()
    return None


def text_of(resigned: list[tuple[int, int]]) -> str | None:
    """The ``resigned`` column's text (None: nobody)."""
    return json.dumps([[seat, at] for seat, at in resigned]) if resigned else None
