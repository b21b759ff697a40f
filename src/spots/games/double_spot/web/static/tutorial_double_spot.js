// Double Spot's moments for the tutorial (static/tutorial.js): the first roll and drop, the two sides of
// the frame, what a drop leaves for the opponent, a card taken, the end.
"use strict";

window.SpotsTutorial && window.SpotsTutorial.teach({
  game: "double-spot",
  still: { drop: "drop", careful: "drop" },
  onState(v, prev, tutor) {
    const say = tutor.say;
    const me = tutor.me();
    const bot = v.players.find((p) => p.seat !== me);
    const botName = bot ? bot.name : "";
    say("welcome", { bot: botName, n: v.rules.target }, ".ds-cards");
    const myTurn = v.to_move === me && v.legal.some((b) => b.move.startsWith("drop"));
    if (myTurn) say("drop", {}, ".frame");
    if (prev && prev.to_move === me && v.to_move !== me && !v.over) say("sides", { bot: botName }, ".frame");
    const discs = v.columns.reduce((n, c) => n + c.discs.filter((d) => d).length, 0);
    if (myTurn && discs >= 6) say("careful", { bot: botName }, ".frame");
    if (prev) {
      v.players.forEach((p, i) => {
        if (prev.players[i] && p.score > prev.players[i].score) say("card", { who: p.name }, `.ds-player[data-seat="${i}"]`);
      });
    }
    if (v.over) say("end", {}, "#end");
  },
});
