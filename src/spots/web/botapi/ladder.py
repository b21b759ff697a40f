"""The bot ladder: bots that entered it play each other, two at a table, all at one thinking budget.

Why a fixed budget: a ladder where the bot with the biggest computer wins says little (lichess will not rank its
bots for that reason). Here every ladder game gives each bot the same time for each decision
(``Limits.ladder_seconds``), enforced by the table's clock: turn-based, so a bot that does not answer in time is
stood in for as a person would be, and counts as out of time (last) when the game is rated. So a ladder rating
compares programs at one budget, whoever runs them.

Ratings: ladder games are rated tables like any other, in a pool of their own (``<game>/ladder``): a bot's ladder
rating never mixes with people's leaderboard, and ``/api/ladder/<game>`` shows it apart.

Pairing: every ``PAIR_S`` each server process tries; only the one holding the ladder's lease (alone on SQLite:
always) pairs, so two processes never seat a bot twice. A bot is ready when its program is connected (seen within
``SEEN_S``) and it plays no ladder game now; ready bots are paired at random (the OS's randomness), and so is who
sits first. Each game is played under the game's default rules for two players.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from ..clocks.clock import Pace
from ..context import Context
from ..games import GameKind, hosted
from ..tables.periodic import Periodic
from .stream import BotStreams

log = logging.getLogger("spots.web")
PAIR_S = 1.0
SEEN_S = 5.0
LEASE = "ladder"  # the lease (``TableStore.bot_lease``) of the process that pairs
CLIENT = "bot ladder"  # whom the ladder's tables count against (the table limits per client)
RNG = random.SystemRandom()


def two_player_rules(kind: GameKind) -> Any:
    """The game's default rules for two players."""
    spec = kind.spec
    return spec.make_rules(players=2) if any(o.name == "players" for o in spec.options) else spec.make_rules()


class Ladder(Periodic):
    """Pairs the ladder's ready bots (``start`` in the app's lifespan, ``stop`` at its end)."""

    every, what = PAIR_S, "the bot ladder"

    def __init__(self, ctx: Context, streams: BotStreams) -> None:
        super().__init__(ctx.hub)
        self.ctx, self.streams = ctx, streams

    async def step(self) -> list[str]:
        return await self.pair()

    async def pair(self, now: float | None = None) -> list[str]:
        """Seat the ready bots of every game's ladder two by two; the new tables."""
        hub = self.hub
        if not await hub.writer.run(hub.store.bot_lease, LEASE):
            return []
        now = time.time() if now is None else now
        made = []
        for game, kind in hosted().items():
            ready = await hub.writer.run(hub.store.ladder_ready, game, now - SEEN_S)
            RNG.shuffle(ready)
            for first, second in zip(ready[::2], ready[1::2], strict=False):
                made.append(await self.table(kind, [first, second]))
        return made

    async def table(self, kind: GameKind, bots: list[tuple[str, str]]) -> str:
        """A rated ladder game of two bots (account, name), each seat already theirs."""
        seats = [{"kind": "human", "name": name, "account": account, "claimed": True} for account, name in bots]
        pace = Pace("turn-based", self.ctx.limits.ladder_seconds, 0.0, "move", "ladder")
        room = await self.hub.create(kind, two_player_rules(kind), seats, client=CLIENT, pace=pace, rated=True,
                                     hints=False)
        await self.hub.writer.run(self.hub.store.mark_ladder_game, room.id, kind.spec.name, time.time())
        self.streams.seated(room)  # bots connected to this process sit at once (others at their next look)
        log.info("ladder: %s against %s at table %s", bots[0][1], bots[1][1], room.id)
        return room.id
