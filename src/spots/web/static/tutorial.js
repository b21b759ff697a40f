// Learn to play: short callouts over a normal table, each shown the first time its moment comes, with
// the advisor's best move (and its odds, where the game gives them). This file holds what every game's tutorial
// shares; the game's own script (in its folder, games/<game>/web/static/) calls SpotsTutorial.teach
// with which moments its views show. It reads the views the server sends; no rules here.
"use strict";

(() => {
  const W = window.SPOTS_TUTORIAL;
  const table = window.SpotsTable;
  if (!W || !table) return;
  const seen = new Set();
  const queue = [];
  let showing = null;
  let resting = false;  // a tip was just dismissed: the next waits for the table to move on (one tip per move)
  let waitingHint = 0;  // advisor replies this script asked for (they do not open the hint panel)
  let lastMine = null;  // the last move this page sent
  const esc = (s) => Page.esc(s);
  const RISKY = 0.25;  // a bust chance from which the advice explains itself
  const fill = (text, values) => Object.keys(values || {}).reduce((t, k) => t.split(`{${k}}`).join(values[k]), text);

  const box = document.createElement("section");
  box.className = "callout card";
  box.id = "callout";
  box.setAttribute("aria-live", "polite");
  box.hidden = true;
  const bar = document.createElement("div");
  bar.className = "tutorial-bar";
  bar.innerHTML = `<b>${esc(W.title)}</b> <button type="button" id="leave-tutorial">${esc(W.leave)}</button>`;
  document.querySelector("main").prepend(bar);
  document.body.appendChild(box);
  document.body.dataset.tutorial = "on";

  // A tip about a choice waits in the queue only while that choice is still on the table (set by the game).
  let STILL = {};

  function stillTrue(key) {
    const v = table.view();
    if (!STILL[key]) return true;
    return !!v && v.to_move === table.me() && v.legal.some((b) => b.move.split(" ")[0] === STILL[key]);
  }

  function say(key, values, anchor) {
    if (seen.has(key) || document.body.dataset.tutorial !== "on") return;
    seen.add(key);
    queue.push({ key, values, anchor });
    if (!showing && !resting) next();
  }

  // "Got it": after the welcome the first tip follows at once; after any other, the next waits for a move, so tips
  // come one at a time as the game goes on instead of a stack of them read one second apart.
  function dismiss() {
    const after = showing && showing.key;
    if (after === "welcome") { next(); return; }
    showing = null;
    box.hidden = true;
    document.querySelectorAll(".callout-focus").forEach((el) => el.classList.remove("callout-focus"));
    resting = queue.length > 0;
  }

  function next() {
    document.querySelectorAll(".callout-focus").forEach((el) => el.classList.remove("callout-focus"));
    showing = queue.shift() || null;
    while (showing && !stillTrue(showing.key)) {
      seen.delete(showing.key);  // its moment passed: tell it next time
      showing = queue.shift() || null;
    }
    if (!showing) { box.hidden = true; return; }
    const [title, text] = W.callouts[showing.key];
    box.dataset.key = showing.key;
    const over = !!(table.view() && table.view().over);  // nothing left to leave once the game is over
    box.innerHTML = `<h2>${esc(title)}</h2><p>${esc(fill(text, showing.values))}</p><p class="advice-line" id="callout-advice"></p>
      <div class="callout-actions">${over ? "" : `<button type="button" id="callout-leave">${esc(W.leave)}</button>`}
      <button type="button" class="primary" id="callout-ok">${esc(W.got_it)}</button></div>`;
    box.hidden = false;
    const el = showing.anchor && document.querySelector(showing.anchor);
    if (el) {
      el.classList.add("callout-focus");
      el.scrollIntoView({ block: "nearest", behavior: "auto" });
    }
    askAdvisor();
  }

  // box.dataset.advice says where the tip's advisor line stands: "asking", then "shown" or "none".
  function askAdvisor() {
    const v = table.view();
    const asked = v && !v.over && v.to_move === table.me() && table.send({ type: "hint" });
    if (asked) waitingHint += 1;
    box.dataset.advice = asked ? "asking" : "none";
  }

  function answered(shown) {
    if (shown) box.dataset.advice = "shown";
    else if (!waitingHint && box.dataset.advice === "asking") box.dataset.advice = "none";
  }

  table.on("hint", (msg) => {
    if (!waitingHint) return false;
    waitingHint -= 1;
    const out = document.getElementById("callout-advice");
    const v = table.view();
    if (!out || !v || msg.moves !== v.moves || !msg.advice.length) { answered(false); return true; }
    const top = msg.advice[0];
    // a trick with a high bust chance says why it may still be right (a beginner's first advice is Run at 52.3%)
    const line = top.bust === null ? W.advisor_safe : top.bust >= RISKY ? W.advisor_risky : W.advisor;
    out.textContent = fill(line, { move: top.label, odds: top.bust === null ? "" : PCT(top.bust) });
    answered(true);
    return true;
  });

  table.on("error", (m) => {
    if (!waitingHint) return false;
    if (m.code === "not-your-turn") { waitingHint -= 1; answered(false); }
    if (m.code !== "hint-timeout" && m.code !== "hint-limit") return false;
    waitingHint -= 1;  // the tips' own advisor question: no odds this time, and no error for a question not asked
    answered(false);
    return true;
  });

  box.addEventListener("click", (e) => {
    if (e.target.id === "callout-ok") dismiss();
    if (e.target.id === "callout-leave") leave();
  });
  document.getElementById("leave-tutorial").addEventListener("click", leave);

  function finished() {  // the game is over: the bar says so and leads back to the lobby, no "Leave the tutorial"
    bar.innerHTML = `<b>${esc(W.title)}</b> <a class="button" href="/">${esc(W.back)}</a>`;
    const leaveTip = document.getElementById("callout-leave");
    if (leaveTip) leaveTip.remove();
  }

  function leave() {
    document.body.dataset.tutorial = "off";
    queue.length = 0;
    showing = null;
    box.hidden = true;
    document.querySelectorAll(".callout-focus").forEach((el) => el.classList.remove("callout-focus"));
    bar.innerHTML = `<span>${esc(W.left)}</span>`;
    history.replaceState(null, "", location.pathname);
  }
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-move], [data-play], [data-pop-move]");
    if (el) lastMine = el.dataset.move || el.dataset.play || el.dataset.popMove;
  }, true);

  // The game's script: { game, still: {callout: move kind}, onState(view, previous view or null, tutor) }
  function teach(lesson) {
    STILL = lesson.still || {};
    const tutor = { say, me: () => table.me(), lastMine: () => lastMine };
    const onState = (v, prev) => {
      if (table.me() === null || v.game !== lesson.game) return;
      if (v.over && document.body.dataset.tutorial === "on") finished();
      lesson.onState(v, prev, tutor);
      if (resting && (v.over || (prev && prev.moves !== v.moves))) { resting = false; if (!showing) next(); }
      const advice = document.getElementById("callout-advice");
      if (showing && !box.hidden && advice && prev && prev.moves !== v.moves) {
        advice.textContent = "";
        askAdvisor();
      }
    };
    table.on("state", onState);
    const v = table.view();
    if (v) onState(v, null);
  }

  window.SpotsTutorial = { teach };
})();
