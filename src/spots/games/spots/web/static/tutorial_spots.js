// Spots' moments for the tutorial (static/tutorial.js): tiles, placing, burying, a bust, treats and
// rerolls, slow-and-steady and fast-and-risky scoring, the tile reset, the end.
"use strict";

window.SpotsTutorial && window.SpotsTutorial.teach({
  game: "spots",
  still: { tiles: "trick", tiles_touch: "trick", place: "place", bury: "bury", treats: "reroll", score: "score" },
  onState(v, prev, tutor) {
    const say = tutor.say;
    const me = tutor.me();
    const mine = v.players[me];
    const bot = v.players.find((p) => p.seat !== me);
    say("welcome", { bot: bot ? bot.name : "", n: v.rules.target }, ".mat.me");
    const myTurn = v.to_move === me;
    const kinds = new Set(v.legal.map((b) => b.move.split(" ")[0]));
    // a click plays a tile at once where there is a mouse (its text shows on hover); a tap first shows the text
    const touch = window.matchMedia("(hover: none)").matches;
    if (myTurn && kinds.has("trick")) say(touch ? "tiles_touch" : "tiles", {}, ".felt .tiles");
    if (myTurn && kinds.has("place")) say("place", {}, ".felt .tray");
    if (myTurn && kinds.has("bury")) say("bury", {}, ".mat.me .yard-patch");
    if (myTurn && kinds.has("reroll")) say("treats", {}, ".felt .tray");
    const full = mine.dogs.find((d) => d.complete && !d.scored);
    if (full) say("complete", { dog: full.title }, `.dogcard[data-dog="${CSS.escape(full.name)}"]`);
    if (myTurn && kinds.has("score")) say("score", {}, ".felt .tray");
    if (prev) {
      v.players.forEach((p, i) => {
        if (prev.players[i] && p.busts > prev.players[i].busts) say("bust", { who: p.name }, `.mat[data-seat="${i}"]`);
      });
      if (mine.scored > prev.players[me].scored) say(tutor.lastMine() === "score" ? "scored" : "fast", {}, ".mat.me .dogs");
      const wasDown = prev.tiles.filter((t) => !t.face_up).length;
      if (wasDown && v.tiles.every((t) => t.face_up) && v.tiles.some((t) => t.treats)) say("reset", {}, ".felt .tiles");
    }
    if (v.over) say("end", {}, "#end");
  },
});
