// Drawing a Spots view sent by the server as a table: tiles, the deck, the supply, the treat pile,
// the roll tray, and each player's mat (yard and dog cards). No rules live here: every clickable
// thing carries the notation of a move the server listed as legal (data-move), and nothing else is offered.
"use strict";

const Spots = (() => {
  const esc = Page.esc;
  const moveButton = Page.moveButton;

  /** A drawn die; `attrs` makes it a tray die or a die on the table (a source of moves). */
  function die(v, cls = "", attrs = "") {
    return `<span class="die ${cls}" data-v="${v}" role="img" aria-label="${esc(T("die showing {v}", { v }))}" ${attrs}>${Art.die(v)}</span>`;
  }

  function paws(n) {
    return n ? `<span class="paws" title="${esc(P("{n} paw print", "{n} paw prints", n))}">${Art.PAW.repeat(n)}</span>` : "";
  }

  /** A dog card: its picture, name, the die-shaped wells for its spaces, its paw prints; the back once scored. */
  function dog(d, owner, mine) {
    const wells = d.spaces.map((s) => {
      const key = `space:${d.name}:${s.v}`;
      if (s.filled) {
        const src = mine ? ` data-src="${esc(key)}" tabindex="-1"` : "";
        return `<span class="well filled" data-key="${esc(key)}"${src}>${die(s.v, "placed")}</span>`;
      }
      const click = s.move && mine ? ` clickable" data-move="${esc(s.move)}" role="button" tabindex="0"
        aria-label="${esc(T("place {v} on {dog}", { v: s.v, dog: d.title }))}` : `" role="img" aria-label="${esc(T("empty space for a {v}", { v: s.v }))}`;
      return `<span class="well space${click}" data-key="${esc(key)}">${Art.die(s.v, "want")}</span>`;
    }).join("");
    const state = d.scored ? " scored" : (d.complete ? " complete" : "");
    return `<div class="dogcard${state}" data-dog="${esc(d.name)}" data-owner="${owner}">
      <div class="card-inner">
        <div class="card-front" ${d.scored ? 'aria-hidden="true"' : ""}>
          <div class="card-name">${esc(d.title)}</div>${Art.dog(d.title)}
          <div class="wells">${wells}</div>
          <div class="card-foot">${paws(d.paws)}${d.complete ? `<span class="complete-mark">${esc(T("complete"))}</span>` : ""}</div>
        </div>
        <div class="card-back" ${d.scored ? "" : 'aria-hidden="true"'}>${Art.cardBack()}<div class="card-name">${esc(d.title)}</div>
          <div class="scored-mark">${esc(T("scored"))}</div></div>
      </div></div>`;
  }

  /** A player's yard: a fenced patch with its buried dice and the total against the limit. */
  function yard(p, view, me) {
    const limit = view.rules.bust_limit;
    const mine = me === p.seat;
    const dice = p.yard.map((v) => die(v, "buried", mine ? `data-src="yard:${p.seat}:${v}" tabindex="-1"` : "")).join("");
    const pct = Math.min(100, (p.yard_total / Math.max(1, limit)) * 100);
    const danger = p.yard_total > limit ? " bust" : (p.yard_total >= limit - 1 ? " close" : "");
    return `<div class="yard-patch${danger}" role="group" data-key="yard:${p.seat}" aria-label="${esc(T("Yard"))} ${p.yard_total}/${limit}">
      <div class="fence" aria-hidden="true"></div>
      <div class="yard-dice">${dice || `<span class="yard-empty">${esc(T("empty"))}</span>`}</div>
      <div class="yard-gauge"><span class="yard-label">${esc(T("Yard"))}</span>
        <b class="yard-total">${p.yard_total}</b><span class="limit">/${limit}</span>
        <span class="meter" aria-hidden="true"><i style="width:${pct}%"></i></span>
        <span class="yard-preview" aria-live="polite"></span></div>
    </div>`;
  }

  function player(p, view, me) {
    const toMove = view.to_move === p.seat;
    const badge = p.kind === "bot" ? `<span class="badge bot">${esc(T("{bot} bot", { bot: p.bot }))}</span>`
      : `<span class="badge ${p.online ? "online" : "offline"}">${esc(p.online ? T("online") : (p.claimed ? T("away") : T("free seat")))}</span>`;
    const dogs = p.dogs.map((d) => dog(d, p.seat, me === p.seat)).join("") || `<span class="muted">${esc(T("no dogs"))}</span>`;
    return `<section class="player mat${toMove ? " to-move" : ""}${me === p.seat ? " me" : ""}" data-seat="${p.seat}" aria-label="${esc(p.name)}">
      <header><span class="pname">${esc(p.name)}${me === p.seat ? esc(T(" (you)")) : ""}</span> ${badge}
        ${toMove ? `<span class="badge turn">${esc(T("to move"))}</span>` : ""}
        <span class="stats">
          <span class="stat" title="${esc(T("scored dogs"))}"><svg class="icon star" viewBox="0 0 20 20" aria-hidden="true"><path d="M10 1.5l2.6 5.6 6 .7-4.5 4.1 1.2 6-5.3-3-5.3 3 1.2-6L1.4 7.8l6-.7z"/></svg>
            <b class="scored-count">${p.scored}</b>/${view.rules.target} <span class="sr">${esc(T("scored"))}</span></span>
          <span class="stat treats-stat" title="${esc(T("treats"))}">${Art.BONE} <b class="treats">${p.treats}</b> <span class="sr">${esc(P("treat", "treats", p.treats))}</span></span>
          <span class="stat" title="${esc(T("paw prints on unscored dogs"))}">${Art.PAW} ${esc(P("{n} paw", "{n} paws", p.paws))}</span>
          <span class="stat" title="${esc(T("times busted"))}">${esc(P("{n} bust", "{n} busts", p.busts))}</span>
        </span></header>
      <div class="mat-body">${yard(p, view, me)}<div class="dogs">${dogs}</div></div>
    </section>`;
  }

  /** One trick tile: its colour group's rosette, its icon, its name, bones lying on it; grey face down. */
  function tile(t) {
    const click = t.move ? ` clickable" data-move="${esc(t.move)}" role="button" tabindex="0` : `" role="group`;
    const label = `${t.title}${t.face_up ? "" : ` (${T("face down")})`}: ${t.text}`;
    return `<div class="tile ${esc(t.colour)}${t.face_up ? "" : " down"}${t.active ? " active" : ""}${click}"
      data-tile="${esc(t.name)}" data-key="tile:${esc(t.name)}" title="${esc(t.text)}" aria-label="${esc(label)}">
      <div class="tile-face">${t.face_up ? Art.ROSETTE[t.colour](Art.ROSETTE_INK[t.colour]) : ""}
        ${Art.tileIcon(t.name)}<div class="tile-title">${esc(t.title)}</div></div>
      ${t.treats ? `<div class="tile-treats" title="${esc(T("treats on this tile"))}">${Art.bones(t.treats, 4)}</div>` : ""}
    </div>`;
  }

  function tiles(view, me) {
    // Only the player to move is offered the tiles: to everyone else they are pictures, not buttons.
    const mine = me !== null && me !== undefined && view.to_move === me;
    return view.tiles.map((t) => tile(mine ? t : { ...t, move: undefined })).join("");
  }

  function deck(view) {
    const top = view.deck.top;
    const layers = Math.min(4, view.deck.left);
    let stack = "";
    for (let i = layers; i > 0; i--) stack += `<i style="transform:translate(${i * 2}px, ${i * 2}px)"></i>`;
    const card = top ? `<div class="mini-card"><div class="card-name">${esc(top.title)}</div>${Art.dog(top.title)}
        <div class="wells">${top.spaces.map((v) => `<span class="well">${Art.die(v, "want")}</span>`).join("")}</div>${paws(top.paws)}</div>`
      : `<div class="mini-card empty">${esc(T("empty"))}</div>`;
    return `<div class="deck obj" role="group" data-key="deck" aria-label="${esc(T("Deck top"))}: ${esc(top ? top.title : T("empty"))}">
      <div class="deck-pile"><div class="stack" aria-hidden="true">${stack}</div>${card}</div>
      <span class="obj-label">${esc(T("Deck top"))} · ${esc(T("{n} below", { n: view.deck.left }))}</span></div>`;
  }

  /** The roll tray: the dice of the current roll (sources of moves) and what the trick is doing. */
  function tray(view, me) {
    const mine = me !== null && me !== undefined && view.to_move === me;
    const dice = view.hand.dice.map((v, i) => mine
      ? `<button type="button" class="die tray-die" data-v="${v}" data-src="tray:${v}" data-i="${i}"
          aria-label="${esc(T("die showing {v}", { v }))}">${Art.die(v)}</button>`
      : die(v, "tray-die", `data-i="${i}"`)).join("");
    const held = view.hand.held.map((v) => die(v, "held")).join("");
    const aside = view.hand.set_aside ? `<span class="aside">${esc(T("+{n} set aside", { n: view.hand.set_aside }))}</span>` : "";
    const trick = view.trick ? `<div class="trick-now">${Art.tileIcon(view.trick.name)}<b>${esc(view.trick.title)}</b>
        <span>${esc(T("step {step} of {steps}", { step: view.trick.step, steps: view.trick.steps }))}</span>
        <span class="trick-text">${esc(view.trick.text)}</span></div>` : "";
    const empty = !dice && !held && !aside;
    return `<div class="tray${empty ? " empty" : ""}" data-key="tray">
      ${trick}<div class="tray-felt" role="group" aria-label="${esc(T("Roll tray"))}">${dice}${held}${aside}${empty ? `<span class="tray-empty">${esc(T("Roll tray"))}</span>` : ""}</div>
      <div class="tray-actions" id="tray-actions"></div></div>`;
  }

  function board(view, me) {
    const order = [...view.players];
    if (me !== null && me !== undefined) order.sort((a, b) => (b.seat === me) - (a.seat === me));
    const players = order.map((p) => player(p, view, me)).join("");
    return `<div class="felt">
      <div class="middle">
        <div class="tiles" role="group" aria-label="${esc(T("Trick tiles"))}">${tiles(view, me)}</div>
        <div class="piles">
          ${deck(view)}
          <div class="supply obj" role="group" data-key="supply" aria-label="${esc(T("Supply"))}">${Art.diceHeap()}
            <span class="obj-label">${esc(P("{n} die", "{n} dice", view.supply.dice))}</span></div>
          <div class="treat-pile obj" role="group" data-key="treats" aria-label="${esc(T("Treats"))}">${Art.bones(view.supply.treats, 6)}
            <span class="obj-label">${esc(P("{n} treat", "{n} treats", view.supply.treats))}</span></div>
          <div class="turn-no obj"><span class="obj-label">${esc(T("Turn"))}</span> <b>${view.turn}</b></div>
        </div>
      </div>
      ${tray(view, me)}
      <div class="players">${players}</div></div>`;
  }

  const GROUPS = [
    ["trick", "Choose a trick"], ["score", "Score"], ["reroll", "Reroll"], ["place", "Place a die"],
    ["bury", "Bury a die"], ["choose", "Choose"], ["pick", "Choose dice"], ["dig", "Dig"], ["move", "Move a die"],
    ["take", "Take a die"], ["continue", "Go on"], ["stop", "Go on"],
  ];

  /** The full list of legal moves: a compact panel for the keyboard, screen readers, and as a fallback. */
  function controls(view, me, busy) {
    if (view.over || me === null || me === undefined) return "";
    if (view.to_move !== me) {
      const who = view.to_move === null ? "" : view.players[view.to_move].name;
      return `<p class="waiting">${esc(T("Waiting for {who}…", { who }))}</p>`;
    }
    const byGroup = new Map();
    for (const b of view.legal) {
      const title = T((GROUPS.find((g) => g[0] === b.group) || [b.group, b.group])[1]);
      if (!byGroup.has(title)) byGroup.set(title, []);
      byGroup.get(title).push(b);
    }
    let html = `<p class="your-turn">${esc(T("Your move"))}${busy ? esc(T(" (sending…)")) : ""}</p>`;
    for (const [title, buttons] of byGroup) {
      html += `<div class="move-group"><span class="group-title">${esc(title)}</span>` + buttons.map((b) =>
        `<button type="button" class="move ${esc(b.group)}" data-move="${esc(b.move)}"${busy ? " disabled" : ""}>${esc(b.label)}</button>`,
      ).join("") + "</div>";
    }
    return html;
  }

  function end(view, table, replay) {
    if (!view.over || !view.summary) return "";
    const s = view.summary;
    const rows = s.players.map((p) => `<tr class="${p.result > 0 ? "winner" : ""}"><td>${esc(p.name)}</td>
      <td>${p.scored}</td><td>${p.busts}</td><td>${p.treats}</td><td>${esc(p.scored_dogs.join(", "))}</td></tr>`).join("");
    return `<h2 class="headline">${esc(s.headline)}</h2>
      <p>${esc(T("{turns}, {moves}.", { turns: P("{n} turn", "{n} turns", s.turns), moves: P("{n} move", "{n} moves", s.moves) }))}</p>
      <table class="summary"><thead><tr><th>${esc(T("Player"))}</th><th>${esc(T("Scored"))}</th><th>${esc(T("Busts"))}</th><th>${esc(T("Treats"))}</th><th>${esc(T("Dogs scored"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p>${replay ? `<a class="button primary" id="open-replay" href="/t/${esc(table)}/replay">${esc(T("Watch the replay"))}</a>` : ""}
      <a class="button" href="/">${esc(T("Back to the lobby"))}</a></p>`;
  }

  // The advisor's table: each move's win estimate and its chance to bust now.
  function hints(advice) {
    const rows = advice.map((a, i) => `<tr><td>${i + 1}</td><td>${moveButton(a)}</td>
      <td>${PCT(a.score)}</td><td>${a.bust === null ? "–" : PCT(a.bust)}</td></tr>`).join("");
    return `<table class="advice"><thead><tr><th>#</th><th>${esc(T("Move"))}</th><th>${esc(T("Win estimate"))}</th><th>${esc(T("Bust now"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  }

  // The table page's hand play and motion (play.js, motion.js): set up once, before a redraw, after it, and
  // put down while a move is on its way.
  function init(page) { Play.init(page); }
  function before(boardEl) { return Motion.before(boardEl); }
  function after(prev, view, snap, boardEl, me, busy) {
    Play.arm(boardEl, view, me, busy);
    Motion.after(prev, view, snap, boardEl);
  }
  function disarm() { Play.disarm(); }

  // The sounds a change of the table calls for (static/sound.js plays them when sound is on).
  function sounds(prev, view) {
    const sum = (v, f) => v.players.reduce((n, p) => n + f(p), 0);
    const placed = (p) => p.yard.length + p.dogs.reduce((n, d) => n + d.spaces.filter((s) => s.filled).length, 0);
    const out = [];
    const [was, now] = [prev.hand.dice, view.hand.dice];
    if (now.length && (now.length > was.length || String(now) !== String(was.slice(0, now.length)))) out.push("roll");
    if (sum(view, placed) > sum(prev, placed) || (now.length < was.length && sum(view, (p) => p.busts) === sum(prev, (p) => p.busts))) {
      out.push("place");
    }
    if (sum(view, (p) => p.busts) > sum(prev, (p) => p.busts)) out.push("bust");
    if (sum(view, (p) => p.scored) > sum(prev, (p) => p.scored)) out.push("score");
    return out;
  }

  return { esc, die, tile, dog, board, controls, end, hints, moveButton, init, before, after, disarm, sounds };
})();

Renderers.spots = Spots;
