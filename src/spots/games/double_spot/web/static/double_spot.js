// Drawing a Double Spot view sent by the server as a table: the upright frame from this viewer's side on its
// base, a pattern card in a holder at each end, the die, the disc piles and the deck, the player across the
// frame behind it and this viewer in front, each with places for the cards to win (art: double_spot_art.js).
// No rules live here: a column can be clicked only when the server listed a drop into it (data-move), and
// the move text is the server's.
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

  const colourWord = (letter) => T(LETTER[letter]);

  /** A pattern card as a card: its spots printed on it, the rest of its box faint (rows: top row first, letters
   * B/G/P/Y and ".", as the server drew it for this side); its id printed small in a corner, as the log names it. */
  function card(rows, id, cls = "") {
    if (!id) return `<div class="pattern ds-card ${cls} none"><span class="none-word">${esc(T("empty"))}</span></div>`;
    const height = rows.length;
    const width = Math.max(...rows.map((r) => r.length));
    let cells = "";
    const spots = [];
    for (const row of rows) {
      for (let x = 0; x < width; x++) {
        const c = LETTER[row[x]];
        if (c) spots.push(colourWord(row[x]));
        cells += c ? disc(c, "small") : `<span class="disc blank small"></span>`;
      }
    }
    return `<div class="pattern ds-card ${cls}" data-card="${esc(id)}" role="img"
        aria-label="${esc(T("Pattern card: {spots}", { spots: spots.join(", ") }))}">
      <div class="pattern-grid" style="grid-template-columns: repeat(${width}, 1fr); grid-template-rows: repeat(${height}, 1fr)">${cells}</div>
      <span class="card-no" aria-hidden="true">${esc(id)}</span></div>`;
  }

  // What the last drawing showed, so a new roll tumbles and a new disc falls (CSS animations,
  // which prefers-reduced-motion turns off). Only a step of one move animates, not a jump.
  let seen = null;

  function die(d, rolled) {
    if (!d) return `<span class="ds-die pending" role="img" aria-label="${esc(T("Roll pending"))}">?</span>`;
    return `<svg class="ds-die-face${rolled ? " rolling" : ""}" viewBox="0 0 56 56" role="img" data-face="${esc(d.face)}"
        aria-label="${esc(T("Die"))}: ${esc(d.label)}">${DsArt.die(d.face)}</svg>`;
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
      // each offered drop is the disc itself, held over the slot with the face it will show toward you
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
          <div class="col-no" aria-hidden="true">${c.n}</div></div>`;
    }).join("");
    // the panel is as wide as its columns; the frame scrolls it sideways when a wide frame outgrows a phone
    return `<div class="frame" style="--rows: ${view.rows}"><div class="frame-panel">${cols}</div></div>`;
  }

  /** A player's place at the table: name, badges, and a row of places for the cards to win, the won ones drawn. */
  function player(p, view, me, where) {
    const toMove = view.to_move === p.seat;
    const presence = view.live === false ? ""  // a replay: who is online now says nothing about it
      : `<span class="badge ${p.online ? "online" : "offline"}">${esc(p.online ? T("online") : (p.claimed ? T("away") : T("free seat")))}</span>`;
    const badge = p.kind === "bot" ? `<span class="badge bot">${esc(T("{bot} bot", { bot: p.bot }))}</span>` : presence;
    const patterns = view.patterns || {};
    const won = p.won.map((id) => card(patterns[id] || [], id, "won-card")).join("");
    const places = Math.max(0, view.rules.target - p.won.length);
    return `<section class="player ds-player ${where}${toMove ? " to-move" : ""}${me === p.seat ? " me" : ""}" data-seat="${p.seat}"
        aria-label="${esc(p.name)}">
      <header><span class="pname">${esc(p.name)}${me === p.seat ? esc(T(" (you)")) : ""}</span> ${badge}
        ${toMove ? `<span class="badge turn">${esc(T("to move"))}</span>` : ""}
        <span class="stat">${esc(T("Cards won"))}: <b class="card-count">${p.score}</b>/${view.rules.target}</span></header>
      <div class="won">${won}${'<span class="card-place" aria-hidden="true"></span>'.repeat(places)}</div>
    </section>`;
  }

  function holder(c) {
    return `<div class="holder" data-holder="${c.holder}">${card(c.rows, c.id)}${DsArt.stand()}
      <span class="label">${esc(T("Holder {n}", { n: c.holder }))}</span></div>`;
  }

  function tray(view, rolled) {
    const piles = Object.entries(view.supply || {}).map(([kind, n]) => {
      const words = kind.split("-").map((c) => T(c)).join("/");
      return `<div class="ds-pile" role="img" aria-label="${esc(T("Pile of {kind} discs: {n}", { kind: words, n }))}">
        ${DsArt.pile(kind, n)}<span class="obj-label" aria-hidden="true">${n}</span></div>`;
    }).join("");
    const left = P("{n} card left in the deck", "{n} cards left in the deck", view.deck_left);
    return `<div class="ds-tray">
        <div class="ds-die-box"><span class="label">${esc(T("Die"))}</span>
          <div class="dish">${die(view.die, rolled)}</div>${view.die ? `<span class="die-label">${esc(view.die.label)}</span>` : ""}</div>
        <div class="ds-piles">${piles}</div>
        <div class="ds-deck" role="img" aria-label="${esc(left)}">${DsArt.deck(view.deck_left)}<span class="obj-label" aria-hidden="true">${esc(left)}</span></div>
        <div class="turn-no"><span class="label">${esc(T("Turn"))}</span> <b>${view.turn + 1}</b></div>
        ${symbolsBox()}
      </div>`;
  }

  function board(view, me) {
    if (!document.getElementById("ds-sym-blue")) document.body.insertAdjacentHTML("afterbegin", SPRITE);
    const rollKey = view.die ? `${view.turn}:${view.die.face}` : "";
    const rolled = seen !== null && rollKey !== "" && rollKey !== seen.roll;
    const fell = fallen(view);
    seen = { side: view.side, roll: rollKey, columns: view.columns.map((c) => c.discs.length) };
    // the frame is drawn from view.side: that player sits in front of it, the other behind it
    const near = view.players.filter((p) => p.seat === view.side);
    const far = view.players.filter((p) => p.seat !== view.side);
    const across = far.map((p) => p.name).join(", ");
    const [left, right] = view.cards;
    return `<div class="ds-table">
        ${far.map((p) => player(p, view, me, "far")).join("")}
        <div class="ds-stage ds-cards">
          <div class="ds-rig">${left ? holder(left) : ""}<div class="ds-upright">${frame(view, fell)}</div>${right ? holder(right) : ""}
            <div class="ds-base" aria-hidden="true"></div></div>
          ${tray(view, rolled)}
          <p class="side">${esc(T("Seen from {who}'s side", { who: view.side_name }))}
            <span class="rim-note">${esc(T("The rim of each disc shows its other face: what {who} sees.", { who: across }))}</span></p>
        </div>
        ${near.map((p) => player(p, view, me, "near")).join("")}
      </div>`;
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
    const patterns = view.patterns || {};
    const won = (p) => p.cards.map((id) => card(patterns[id] || [], id, "won-card")).join("") || "–";  // (the count says 0)
    const rows = s.players.map((p) => `<tr class="${p.result > 0.5 ? "winner" : ""}"><td>${esc(p.name)}</td>
      <td>${p.score}</td><td><div class="end-cards">${won(p)}</div></td></tr>`).join("");
    return `<h2 class="headline">${esc(s.headline)}</h2>
      <p>${esc(T("{turns}, {moves}.", { turns: P("{n} turn", "{n} turns", s.turns), moves: P("{n} move", "{n} moves", s.moves) }))}</p>
      <table class="summary"><thead><tr><th>${esc(T("Player"))}</th><th>${esc(T("Cards won"))}</th><th>${esc(T("Cards"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p>${replay ? `<a class="button primary" id="open-replay" href="/t/${esc(table)}/replay">${esc(T("Watch the replay"))}</a>` : ""}
      <a class="button" href="/">${esc(T("Back to the lobby"))}</a></p>`;
  }

  // Motion between two server views: a card taken flies from its holder to the places of the player who took
  // it, a card dealt slides from the deck into its holder. prefers-reduced-motion: nothing moves.
  const quiet = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const box = (el) => (el ? el.getBoundingClientRect() : null);

  /** Which holder each card stands in, and how it looks (call just before the board is redrawn). */
  function before(root) {
    const holders = new Map();
    root.querySelectorAll(".holder[data-holder]").forEach((h) => {
      const el = h.querySelector(".pattern[data-card]");
      if (el) holders.set(el.dataset.card, { holder: h.dataset.holder, html: el.outerHTML });
    });
    return { holders };
  }

  /** Fly a copy of card `id` from where it stood to its place by the player who took it. Measured when it takes
   * off (the next frame), and the place looked up then: the page around the board (the end screen, the status)
   * may have moved things, and another view may have been drawn in between. */
  function flyCard(root, id, seat, from) {
    const place = () => root.querySelector(`.ds-player[data-seat="${seat}"] .won .pattern[data-card="${CSS.escape(id)}"]`);
    const waiting = place();
    if (waiting) waiting.classList.add("arriving");  // the card in its new place shows when its flight lands
    requestAnimationFrame(() => {
      const el = place();
      const start = from ? root.querySelector(`.holder[data-holder="${from.holder}"] .ds-card`) : root.querySelector(".ds-deck svg");
      const r = box(start), to = box(el);
      if (!el || !r || !to.width || !r.width) { if (el) el.classList.remove("arriving"); return; }
      el.classList.add("arriving");
      const holderEl = document.createElement("div");
      holderEl.innerHTML = from ? from.html : el.outerHTML;
      const ghost = holderEl.firstElementChild;
      ghost.classList.remove("arriving", "won-card");
      ghost.classList.add("ds-flying");
      ghost.removeAttribute("role");
      ghost.setAttribute("aria-hidden", "true");
      ghost.dataset.to = String(seat);
      Object.assign(ghost.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
      ghost.style.setProperty("--w", `${r.width}px`);  // the card's spots are sized from its width
      document.body.appendChild(ghost);
      const dx = to.left - r.left, dy = to.top - r.top, scale = to.width / r.width;
      const flight = ghost.animate([
        { transform: "none" },
        { transform: `translate(${dx / 2}px, ${dy / 2 - 40}px) rotate(-10deg) scale(${(1 + scale) / 2 + 0.15})`, offset: 0.45 },
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
      ], { duration: 1000, easing: "ease-in-out" });
      const land = () => {
        ghost.remove();
        const now = place();  // (redrawn meanwhile, perhaps)
        if (now) { now.classList.remove("arriving"); now.classList.add("just-won"); }
      };
      flight.onfinish = land;
      flight.oncancel = land;
    });
  }

  function dealt(root, el) {
    requestAnimationFrame(() => {
      const deck = box(root.querySelector(".ds-deck svg")), to = box(el);
      if (!deck || !to) return;
      el.animate([{ transform: `translate(${deck.left - to.left}px, ${deck.top - to.top}px) scale(.7) rotateY(90deg)`, opacity: 0.4 },
        { transform: "none", opacity: 1 }], { duration: 550, delay: 450, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
    });
  }

  /** Animate what changed from `prev` to `view` (call just after the board is redrawn). */
  function after(prev, view, snap, root) {
    if (!prev || !snap || quiet() || prev.game !== view.game || prev.side !== view.side) return;
    view.players.forEach((p, seat) => {
      const had = new Set((prev.players[seat] || { won: [] }).won);
      // a card in no holder before was dealt and taken at once: it flies from the deck
      for (const id of p.won.filter((c) => !had.has(c))) flyCard(root, id, seat, snap.holders.get(id));
    });
    root.querySelectorAll(".holder .pattern[data-card]").forEach((el) => {
      if (!snap.holders.has(el.dataset.card)) dealt(root, el);
    });
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

  // The sounds a change of the table calls for (static/sound.js plays them when sound is on): a roll of the die,
  // a disc dropped, a card taken.
  function sounds(prev, view) {
    const discs = (v) => v.columns.reduce((n, c) => n + c.discs.length, 0);
    const cards = (v) => v.players.reduce((n, p) => n + p.score, 0);
    const out = [];
    if (discs(view) > discs(prev)) out.push("place");
    if (cards(view) > cards(prev)) out.push("score");
    if (view.die && (!prev.die || view.turn !== prev.turn)) out.push("roll");
    return out;
  }

  return { board, controls, end, hints, before, after, esc, sounds };
})();

Renderers["double-spot"] = DoubleSpot;
