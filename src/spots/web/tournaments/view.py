"""What an event's page and its JSON show: the event, its entrants, its rounds with their tables, the standings, and
for a signed-in entrant the link to their own seat. Standings are computed here from the stored places by
``spots.tournaments`` (the same functions the format study used), never stored, so they cannot disagree."""

from __future__ import annotations

import csv
import io
from typing import Any

from ...tournaments import GameResult, SameDice, arena_standings, same_dice, standings
from ..games import hosted
from ..tables.hub import Hub
from .director import results_of
from .settings import Settings, filler, fillers, pace_of
from .store import WAITING, EntrantRow, TournamentGame, TournamentRow

Ranks = tuple[SameDice | None, ...]  # a finished game's players' ranks among those who had the same dice


def entrant_name(entrant: EntrantRow) -> str:
    """An entrant's name as shown: a server bot's is its bot's name with "-bot" and a number ("greedy-bot 2")."""
    return entrant.name


def lines_of(event: TournamentRow, entrants: list[EntrantRow], games: list[TournamentGame],
             ranked: list[Ranks] | None = None) -> list[dict[str, Any]]:
    """The standings, best first (``ranked``: the finished games' ``same_dice`` where the caller has them)."""
    settings = Settings.of(event.settings)
    names = {e.entrant: e for e in entrants}
    results: list[GameResult] = results_of(games)
    everyone = [e.entrant for e in entrants]
    found = (arena_standings(everyone, results) if settings.format == "arena"
             else standings(everyone, results, settings.tiebreaks))
    if settings.duplicate and ranked is None:
        ranked = same_dice(results)
    shares = same_dice_shares(results, ranked) if ranked is not None else {}
    return [{"rank": s.rank, "entrant": s.player, "name": entrant_name(names[s.player]),
             "bot": names[s.player].bot is not None, "account": names[s.player].account,
             "withdrawn": names[s.player].withdrawn, "points": round(s.points, 3), "games": s.games, "wins": s.wins,
             "byes": s.byes, "buchholz": round(s.buchholz, 3), "sonneborn_berger": round(s.sonneborn_berger, 3),
             **({"luck": round(s.luck, 3)} if settings.luck else {}),
             **({"same_dice": shares.get(s.player)} if settings.duplicate else {})}
            for s in found]


def same_dice_shares(results: list[GameResult], ranked: list[Ranks]) -> dict[str, float]:
    """Duplicate dice: each player's mean share of the others who had the same dice that they outscored (0 to 1),
    from ``ranked`` (``same_dice(results)``)."""
    shares: dict[str, list[float]] = {}
    for result, seats in zip(results, ranked, strict=True):
        for player, found in zip(result.players, seats, strict=True):
            if found is not None:
                shares.setdefault(player, []).append(found.share)
    return {player: round(sum(got) / len(got), 3) for player, got in shares.items()}


async def event_json(hub: Hub, event: TournamentRow, me: str | None) -> dict[str, Any]:
    """The event as its page and API show it (``me``: the signed-in account, for its own seat's link)."""
    store = hub.store
    entrants = await hub.writer.run(store.entrants, event.id)
    games = await hub.writer.run(store.tournament_games, event.id)
    settings = Settings.of(event.settings)
    names = {e.entrant: entrant_name(e) for e in entrants}
    rounds: dict[int, list[dict[str, Any]]] = {}
    mine = None
    kind = hosted()[event.game]
    finished = [g for g in games if g.places is not None]
    ranked = same_dice(results_of(finished)) if settings.duplicate else None
    compared = {} if ranked is None else _ranks_by_table(finished, ranked)
    for game in games:
        made = not game.table_id.startswith(WAITING)
        filled = [f"{filler(kind)}-bot"] * fillers(settings, len(game.players))
        row: dict[str, Any] = {
            "table": game.table_id if made else None, "players": [names[p] for p in game.players] + filled,
            "places": list(game.places) if game.places is not None else None,
            "scores": list(game.scores) if game.scores is not None else None,
            "bye": not made and game.places is not None}
        if settings.duplicate:  # each player's rank among everyone who had the same dice: [rank, of] or None
            row["same_dice"] = compared.get(game.table_id)
        if settings.luck:
            row["luck"] = [round(x, 3) for x in game.luck] if game.luck is not None else None
        rounds.setdefault(game.round, []).append(row)
        if made and game.places is None and me is not None and me in game.players:
            mine = await _seat_link(hub, game.table_id, me)
    return {
        "id": event.id, "name": event.name, "game": event.game, "status": event.status, "round": event.round,
        "starts": event.starts, "ended": event.ended, "owner": event.owner,
        "settings": {**settings.to_dict(), "pace": pace_of(settings).profile},
        "entrants": [{"entrant": e.entrant, "name": names[e.entrant], "bot": e.bot is not None,
                      "withdrawn": e.withdrawn, "mine": e.account == me and me is not None} for e in entrants],
        "rounds": [{"round": n, "games": rows} for n, rows in sorted(rounds.items())],
        "standings": lines_of(event, entrants, games, ranked),
        "my_table": mine,
        "finished": sum(g.places is not None and not g.table_id.startswith(WAITING) for g in games),
    }


def _ranks_by_table(finished: list[TournamentGame], ranked: list[Ranks]) -> dict[str, list[list[int] | None]]:
    """By table, each player's [rank, of] among everyone who had the same dice in a duplicate round."""
    return {game.table_id: [None if d is None else [d.rank, d.of] for d in seats]
            for game, seats in zip(finished, ranked, strict=True)}


async def _seat_link(hub: Hub, table_id: str, account: str) -> str | None:
    """The link to the account's own seat at a table (its token: shown only to that account)."""
    room = await hub.table(table_id)
    if room is None:
        return None
    seat = next((s for s in room.row.seats if s.account == account and s.token), None)
    return None if seat is None else f"/play/{seat.token}"


def standings_csv(event: TournamentRow, entrants: list[EntrantRow], games: list[TournamentGame]) -> str:
    """The standings as CSV (one row a player; the tie-breaks' columns as the page shows them)."""
    out = io.StringIO()
    writer = csv.writer(out)
    columns = ["rank", "name", "bot", "withdrawn", "points", "games", "wins", "byes", "buchholz", "sonneborn_berger"]
    lines = lines_of(event, entrants, games)
    columns += [c for c in ("luck", "same_dice") if lines and c in lines[0]]
    writer.writerow(columns)
    for line in lines:
        writer.writerow(["" if line[c] is None else line[c] for c in columns])
    return out.getvalue()
