// The Daily page: the player's own board of the day (best score, streak, medals), kept in this browser by the
// solo table (solo.js). Nothing is sent anywhere.
"use strict";

(() => {
  const read = (key, empty) => { try { return JSON.parse(localStorage.getItem(key)) || empty; } catch (e) { return empty; } };
  const fill = (text, values) => Object.keys(values || {}).reduce((t, k) => t.split(`{${k}}`).join(values[k]), text);
  const bests = read("spots-solo-best", {});
  const best = document.getElementById("daily-best");
  const today = bests[best.dataset.deal];
  best.textContent = today ? fill(best.dataset.best, { turns: P("{n} turn", "{n} turns", today.turns),
    busts: P("{n} bust", "{n} busts", today.busts) }) : best.dataset.none;  // each count in its own plural
  const streak = document.getElementById("daily-streak");
  const days = new Set(read("spots-solo-days", []));
  let n = 0;
  const day = new Date(streak.dataset.day + "T00:00:00Z");
  if (!days.has(streak.dataset.day)) day.setUTCDate(day.getUTCDate() - 1);  // today not played yet: the streak to yesterday
  while (days.has(day.toISOString().slice(0, 10))) { n += 1; day.setUTCDate(day.getUTCDate() - 1); }
  streak.textContent = fill(n === 1 ? streak.dataset.one : streak.dataset.other, { n });
  const words = document.getElementById("challenges").dataset;
  for (const mark of document.querySelectorAll("[data-medal-for]")) {
    const got = bests[mark.dataset.medalFor];
    if (got && got.medal) mark.textContent = "★ " + (words[got.medal] || got.medal);
  }
})();
