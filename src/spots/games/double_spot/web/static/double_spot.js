// Drawing a Double Spot view sent by the server: the frame from this viewer's side, the two cards,
// the die and each player's cards. No rules live here: a column can be clicked only when the server
// listed a drop into it (data-move), and the move text is the server's.
"use strict";

const DoubleSpot = (() => {
  const esc = Page.esc;
  const LETTER = { B: "blue", G: "green", P: "pink", Y: "yellow" };
  const COLOURS = ["blue", "green", "pink", "yellow"];

  // Colour-blind mode: every disc and die face also carries a drawn shape (blue square, green
  // triangle, pink plus, yellow ring). The shapes are always in the page; a class on <html> shows
  // them, so the switch needs no redraw. The choice is remembered in this browser (localStorage).
  const SYMBOLS_KEY = "spots.colourSymbols";
  const SPRITE = `<svg class="ds-sprite" aria-hidden="true" focusable="false">
    <symbol id="ds-sym-blue" viewBox="0 0 20 20"><rect x="5" y="5" width="10" height="10" rx="1"/></symbol>
    <symbol id="ds-sym-green" viewBox="0 0 20 20"><path d="M10 3.6 16.4 15.4H3.6z"/></symbol>
    <symbol id="ds-sym-pink" viewBox="0 0 20 20"><path d="M8 3.5h4V8h4.5v4H12v4.5H8V12H3.5V8H8z"/></symbol>
    <symbol id="ds-sym-yellow" viewBox="0 0 20 20"><path fill-rule="evenodd" d="M10 3.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zm0 3.2a3.3 3.3 0 1 0 0 6.6 3.3 3.3 0 0 0 0-6.6z"/></symbol>
    <symbol id="ds-arrow" viewBox="0 0 20 20"><path d="M4 6.5h12L10 15z"/></symbol></svg>`;

  function symbolsOn() {
    try { return localStorage.getItem(SYMBOLS_KEY) === "1"; } catch (e) { return false; }
  }
  function showSymbols(on) {
    document.documentElement.classList.toggle("ds-symbols", on);
    try { localStorage.setItem(SYMBOLS_KEY, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
  }
  document.documentElement.classList.toggle("ds-symbols", symbolsOn());
  document.addEventListener("change", (e) => {
    if (e.target.id === "ds-symbols") showSymbols(e.target.checked);
  });

  function sym(colour) {
    return COLOURS.includes(colour) ? `<svg class="sym" aria-hidden="true"><use href="#ds-sym-${colour}"/></svg>` : "";
  }

  // The switch sits in the status bar, which is not redrawn with each move (so it keeps the focus);
  // the key to the shapes is part of the table.
  function symbolSwitch() {
    return `<label class="ds-switch"><input type="checkbox" id="ds-symbols" role="switch"
        ${symbolsOn() ? "checked" : ""}> ${esc(T("Colour symbols"))}</label>`;
  }

  function symbolsBox() {
    const bar = document.querySelector(".status-actions");
    if (bar && !document.getElementById("ds-symbols")) bar.insertAdjacentHTML("afterbegin", symbolSwitch());
    const legend = COLOURS.map((c) => `<span class="ds-key"><span class="disc small ${c}">${sym(c)}</span>${esc(T(c))}</span>`).join("");
    return `<div class="ds-symbols-box">${bar ? "" : symbolSwitch()}<span class="ds-legend">${legend}</span></div>`;
  }

  function disc(colour, cls = "") {
    return `<span class="disc ${colour ? esc(colour) : "empty"} ${cls}">${sym(colour)}</span>`;
  }

  function card(rows, id, cls = "") {
    // rows: top row first, letters B/G/P/Y and "." (as the server drew it for this side)
    if (!id) return `<div class="pattern ${cls} none"><span class="muted">${esc(T("empty"))}</span></div>`;
    const height = rows.length;
    const width = Math.max(...rows.map((r) => r.length));
    let cells = "";
    for (const row of rows) {
      for (let x = 0; x < width; x++) {
        const c = LETTER[row[x]];
        cells += c ? disc(c, "small") : `<span class="disc blank small"></span>`;
      }
    }
    return `<div class="pattern ${cls}" data-card="${esc(id)}" title="${esc(id)}">
      <div class="pattern-grid" style="grid-template-columns: repeat(${width}, 1fr); grid-template-rows: repeat(${height}, 1fr)">${cells}</div>
      <div class="pattern-id">${esc(id)}</div></div>`;
  }

  // What the last drawing showed, so a new roll tumbles and a new disc falls (CSS animations,
  // which prefers-reduced-motion turns off). Only a step of one move animates, not a jump.
  let seen = null;

  function dieFace(colours) {
    // a white die whose top face shows a coloured circle, split in two for a two-colour face
    const [a, b] = colours;
    const face = b
      ? `<path class="c-${a}" d="M24 9a14 14 0 0 0 0 28z"/><path class="c-${b}" d="M24 9a14 14 0 0 1 0 28z"/>
         <use class="sym on-${a}" href="#ds-sym-${a}" x="11" y="17" width="12" height="12"/>
         <use class="sym on-${b}" href="#ds-sym-${b}" x="25" y="17" width="12" height="12"/>`
      : `<circle class="c-${a}" cx="24" cy="23" r="14"/>
         <use class="sym on-${a}" href="#ds-sym-${a}" x="15" y="14" width="18" height="18"/>`;
    return `<rect class="die-edge" x="2" y="5" width="44" height="41" rx="9"/>
      <rect class="die-body" x="2" y="2" width="44" height="42" rx="9"/>${face}`;
  }

  function die(d, rolled) {
    if (!d) return `<span class="ds-die pending" title="${esc(T("Roll pending"))}">?</span>`;
    const colours = d.colours.filter((c) => COLOURS.includes(c));
    return `<svg class="ds-die-face${rolled ? " rolling" : ""}" viewBox="0 0 48 48" role="img" data-face="${esc(d.face)}"
        aria-label="${esc(T("Die"))}: ${esc(d.label)}">${dieFace(colours)}</svg>
      <span class="die-label">${esc(d.label)}</span>`;
  }

  function fallen(view) {
    // per column, the row of a disc that was not there in the last drawing (or -1)
    const same = seen && seen.side === view.side && seen.columns.length === view.columns.length;
    const rows = view.columns.map((c, i) => (same && c.discs.length === seen.columns[i] + 1 ? seen.columns[i] : -1));
    return rows.filter((r) => r >= 0).length === 1 ? rows : rows.map(() => -1);
  }

  function frame(view, fell) {
    const cols = view.columns.map((c, i) => {
      const one = c.drops.length === 1 ? c.drops[0] : null;
      const click = one ? ` clickable" data-move="${esc(one.move)}" role="button" tabindex="0` : "";
      const label = T("Column {n}", { n: c.n });
      const held = c.discs.map((d) => T(d)).join(", ") || T("empty");
      const role = one ? "" : ' role="img"';  // a clickable slot is a button (above)
      const arrows = c.drops.map((d) => `<button type="button" class="drop ${esc(d.colour)}" data-move="${esc(d.move)}"
          aria-label="${esc(label)}: ${esc(d.label)}" title="${esc(label)}: ${esc(d.label)}"><svg class="arrow" aria-hidden="true"><use href="#ds-arrow"/></svg>${sym(d.colour)}</button>`).join("");
      let cells = "";
      for (let r = 0; r < view.rows; r++) {
        cells += r === fell[i] ? disc(c.discs[r], `dropped" style="--fall: ${view.rows - r}`) : disc(c.discs[r] || "");
      }
      return `<div class="ds-column" data-column="${c.n}">
          <div class="drops">${arrows}</div>
          <div class="slot${c.drops.length ? " open" : ""}${click}"${role}
            aria-label="${esc(T("Column {n}, from the bottom: {discs}", { n: c.n, discs: held }))}">${cells}</div>
          <div class="col-no">${c.n}</div></div>`;
    }).join("");
    return `<div class="frame" style="--rows: ${view.rows}">${cols}</div>`;
  }

  function player(p, view, me) {
    const toMove = view.to_move === p.seat;
    const presence = view.live === false ? ""  // a replay: who is online now says nothing about it
      : `<span class="badge ${p.online ? "online" : "offline"}">${esc(p.online ? T("online") : (p.claimed ? T("away") : T("free seat")))}</span>`;
    const badge = p.kind === "bot" ? `<span class="badge bot">${esc(T("{bot} bot", { bot: p.bot }))}</span>` : presence;
    return `<section class="player ds-player${toMove ? " to-move" : ""}${me === p.seat ? " me" : ""}" data-seat="${p.seat}">
      <header><span class="pname">${esc(p.name)}${me === p.seat ? esc(T(" (you)")) : ""}</span> ${badge}
        ${toMove ? `<span class="badge turn">${esc(T("to move"))}</span>` : ""}</header>
      <div class="stats"><span class="stat">${esc(T("Cards won"))}: <b class="card-count">${p.score}</b>/${view.rules.target}</span></div>
      <div class="won">${p.won.map((id) => `<span class="won-card">${esc(id)}</span>`).join(" ") || `<span class="muted">${esc(T("None yet."))}</span>`}</div>
    </section>`;
  }

  function board(view, me) {
    if (!document.getElementById("ds-sym-blue")) document.body.insertAdjacentHTML("afterbegin", SPRITE);
    const rollKey = view.die ? `${view.turn}:${view.die.face}` : "";
    const rolled = seen !== null && rollKey !== "" && rollKey !== seen.roll;
    const fell = fallen(view);
    seen = { side: view.side, roll: rollKey, columns: view.columns.map((c) => c.discs.length) };
    const cards = view.cards.map((c) => `<div class="holder"><span class="label">${esc(T("Holder {n}", { n: c.holder }))}</span>
      ${card(c.rows, c.id)}</div>`).join("");
    return `<div class="middle card ds-middle">
        <div class="ds-top">
          <div class="ds-cards"><span class="label">${esc(T("Pattern cards"))}</span><div class="holders">${cards}</div>
            <span class="muted">${esc(P("{n} card left in the deck", "{n} cards left in the deck", view.deck_left))}</span></div>
          <div class="ds-die-box"><span class="label">${esc(T("Die"))}</span> ${die(view.die, rolled)}</div>
          <div class="turn-no"><span class="label">${esc(T("Turn"))}</span> ${view.turn + 1}</div>
          ${symbolsBox()}
        </div>
        <p class="side muted">${esc(T("Seen from {who}'s side", { who: view.side_name }))}</p>
        ${frame(view, fell)}
      </div>
      <div class="players">${view.players.map((p) => player(p, view, me)).join("")}</div>`;
  }

  function controls(view, me, busy) {
    if (view.over || me === null || me === undefined) return "";
    if (view.claim) {
      return `<p class="your-turn">${view.legal.map((b) => `<button type="button" class="move primary claim" data-move="${esc(b.move)}"${busy ? " disabled" : ""}>${esc(T("Claim the card!"))}</button>`).join("")}</p>`;
    }
    if (view.to_move !== me) {
      const who = view.to_move === null ? "" : view.players[view.to_move].name;
      return `<p class="waiting">${esc(T("Waiting for {who}…", { who }))}</p>`;
    }
    return `<p class="your-turn">${esc(T("Your move"))}${busy ? esc(T(" (sending…)")) : ""}: ${esc(T("Drop a disc"))}
      ${view.die ? `(${esc(view.die.label)})` : ""}</p>`;
  }

  function end(view, table, replay) {
    if (!view.over || !view.summary) return "";
    const s = view.summary;
    const rows = s.players.map((p) => `<tr class="${p.result > 0.5 ? "winner" : ""}"><td>${esc(p.name)}</td>
      <td>${p.score}</td><td>${esc(p.cards.join(", "))}</td></tr>`).join("");
    return `<h2 class="headline">${esc(s.headline)}</h2>
      <p>${esc(T("{turns}, {moves}.", { turns: P("{n} turn", "{n} turns", s.turns), moves: P("{n} move", "{n} moves", s.moves) }))}</p>
      <table class="summary"><thead><tr><th>${esc(T("Player"))}</th><th>${esc(T("Cards won"))}</th><th>${esc(T("Cards"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p>${replay ? `<a class="button primary" id="open-replay" href="/t/${esc(table)}/replay">${esc(T("Watch the replay"))}</a>` : ""}
      <a class="button" href="/">${esc(T("Back to the lobby"))}</a></p>`;
  }

  // The advisor's table: each drop with what it takes now, the opponent's chance to finish a card on their roll,
  // and the mover's on the roll after; the bot's rank, shared by drops of equal value (marked "=").
  function hints(advice) {
    const shared = (r) => advice.filter((a) => a.rank === r).length > 1;
    const now = (a) => a.result === 1 ? T("wins the game") : a.result === 0.5 ? T("ends the game in a draw")
      : a.result === 0 ? T("ends the game, lost") : a.takes.length ? a.takes.join(" ") : "–";
    const pct = (x) => x === null ? "–" : PCT(x);
    const rows = advice.map((a) => `<tr data-rank="${a.rank}"><td class="rank">${a.rank}${shared(a.rank) ? "=" : ""}</td>
      <td>${Page.moveButton(a)}</td><td class="takes">${esc(now(a))}</td><td class="risk">${pct(a.risk)}</td>
      <td class="next">${pct(a.next)}</td></tr>`).join("");
    // Early on every drop is worth the same (all ranked 1=): say so in words rather than leave a column of 1=.
    const even = advice.length > 1 && advice.every((a) => a.rank === advice[0].rank)
      ? `<p class="advice-even">${esc(T("No drop matters yet: every column leaves the same chances."))}</p>` : "";
    return `${even}<p class="muted advice-note">${esc(T("The chance to finish a card, exact over the die; drops of equal value share a rank."))}</p>
      <table class="advice"><thead><tr><th>#</th><th>${esc(T("Move"))}</th><th>${esc(T("Takes now"))}</th>
      <th>${esc(T("Opponent's roll"))}</th><th>${esc(T("Your next roll"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  }

  return { board, controls, end, hints, esc };
})();

Renderers["double-spot"] = DoubleSpot;
