// Drawing a view sent by the server. No rules live here: every clickable thing carries
// the notation of a move the server listed as legal (data-move), and nothing else is offered.
"use strict";

const Spots = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);

  const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

  function die(v, cls = "") {
    const pips = PIPS[v] || [];
    let cells = "";
    for (let i = 1; i <= 9; i++) cells += `<i class="${pips.includes(i) ? "pip" : ""}"></i>`;
    return `<span class="die ${cls}" data-v="${v}" aria-label="${T("die showing {v}", { v })}">${cells}</span>`;
  }

  // Small inline icons (no emoji: not every machine has an emoji font).
  const PAW = '<svg class="icon paw" viewBox="0 0 20 20" aria-hidden="true"><ellipse cx="10" cy="13.5" rx="4.6" ry="3.8"/>'
    + '<circle cx="4" cy="8.5" r="2"/><circle cx="8" cy="4.8" r="2"/><circle cx="12" cy="4.8" r="2"/><circle cx="16" cy="8.5" r="2"/></svg>';
  const BONE = '<svg class="icon bone" viewBox="0 0 24 14" aria-hidden="true"><path d="M5 2.5a2.5 2.5 0 0 1 4.6 1.3h4.8'
    + 'A2.5 2.5 0 1 1 19 7a2.5 2.5 0 1 1-4.6 3.2H9.6A2.5 2.5 0 1 1 5 7 2.5 2.5 0 0 1 5 2.5z"/></svg>';
  const STAR = '<svg class="icon star" viewBox="0 0 20 20" aria-hidden="true"><path d="M10 1.5l2.6 5.6 6 .7-4.5 4.1 1.2 6'
    + '-5.3-3-5.3 3 1.2-6L1.4 7.8l6-.7z"/></svg>';
  const BOOM = '<svg class="icon boom" viewBox="0 0 20 20" aria-hidden="true"><path d="M10 1l2 5 5-2-2.5 4.5L19 11l-5 1 1 5'
    + '-4-3-3 4-.5-5-5.5-1 4.5-3L3 4l5 2z"/></svg>';

  function paws(n) {
    return n ? `<span class="paws" title="${esc(P("{n} paw print", "{n} paw prints", n))}">${PAW.repeat(n)}</span>` : "";
  }

  function dog(d, owner) {
    if (d.scored) {
      return `<div class="dog scored" title="${esc(d.title)}: ${esc(T("scored"))}"><div class="dog-name">${esc(d.title)}</div>
        <div class="scored-mark">${STAR} ${esc(T("scored"))}</div></div>`;
    }
    const spaces = d.spaces.map((s) => {
      const clickable = s.move ? ` clickable" data-move="${esc(s.move)}" role="button" tabindex="0" title="${esc(T("place {v} here", { v: s.v }))}` : "";
      return `<span class="space${s.filled ? " filled" : ""}${clickable}">${s.filled ? die(s.v, "small") : `<b>${s.v}</b>`}</span>`;
    }).join("");
    return `<div class="dog${d.complete ? " complete" : ""}" data-dog="${esc(d.name)}" data-owner="${owner}">
      <div class="dog-name">${esc(d.title)} ${paws(d.paws)}</div><div class="spaces">${spaces}</div>
      ${d.complete ? `<div class="complete-mark">${esc(T("complete"))}</div>` : ""}</div>`;
  }

  function player(p, view, me) {
    const toMove = view.to_move === p.seat;
    const over = p.yard_total > view.rules.bust_limit;
    const yard = p.yard.length ? p.yard.map((v) => die(v, "small")).join("") : `<span class="muted">${esc(T("empty"))}</span>`;
    const badge = p.kind === "bot" ? `<span class="badge bot">${esc(T("{bot} bot", { bot: p.bot }))}</span>`
      : `<span class="badge ${p.online ? "online" : "offline"}">${esc(p.online ? T("online") : (p.claimed ? T("away") : T("free seat")))}</span>`;
    const dogs = p.dogs.map((d) => dog(d, p.seat)).join("") || `<span class="muted">${esc(T("no dogs"))}</span>`;
    return `<section class="player${toMove ? " to-move" : ""}${me === p.seat ? " me" : ""}" data-seat="${p.seat}">
      <header><span class="pname">${esc(p.name)}${me === p.seat ? esc(T(" (you)")) : ""}</span> ${badge}
        ${toMove ? `<span class="badge turn">${esc(T("to move"))}</span>` : ""}</header>
      <div class="stats">
        <span class="stat" title="${esc(T("scored dogs"))}">${STAR} <b class="scored-count">${p.scored}</b>/${view.rules.target} ${esc(T("scored"))}</span>
        <span class="stat" title="${esc(T("treats"))}">${BONE} <b class="treats">${p.treats}</b> ${esc(P("treat", "treats", p.treats))}</span>
        <span class="stat" title="${esc(T("paw prints on unscored dogs"))}">${PAW} ${esc(P("{n} paw", "{n} paws", p.paws))}</span>
        <span class="stat" title="${esc(T("times busted"))}">${BOOM} ${esc(P("{n} bust", "{n} busts", p.busts))}</span>
      </div>
      <div class="yard${over ? " bust" : ""}"><span class="yard-label">${esc(T("Yard"))}
        <b class="yard-total">${p.yard_total}</b>/${view.rules.bust_limit}</span><span class="yard-dice">${yard}</span></div>
      <div class="dogs">${dogs}</div>
    </section>`;
  }

  function tiles(view) {
    return view.tiles.map((t) => {
      const click = t.move ? ` clickable" data-move="${esc(t.move)}" role="button" tabindex="0` : "";
      return `<div class="tile ${t.colour}${t.face_up ? "" : " down"}${t.active ? " active" : ""}${click}"
        title="${esc(t.text)}"><div class="tile-title">${esc(t.title)}</div>
        <div class="tile-text">${t.face_up ? esc(t.text) : esc(T("face down"))}</div>
        ${t.treats ? `<div class="tile-treats" title="${esc(T("treats on this tile"))}">${BONE} ${t.treats}</div>` : ""}</div>`;
    }).join("");
  }

  function board(view, me) {
    const top = view.deck.top;
    const deck = top ? `<div class="deck-card"><div class="dog-name">${esc(top.title)} ${paws(top.paws)}</div>
        <div class="spaces">${top.spaces.map((v) => `<span class="space"><b>${v}</b></span>`).join("")}</div></div>`
      : `<span class="muted">${esc(T("empty"))}</span>`;
    const trick = view.trick ? `<div class="trick-now"><b>${esc(view.trick.title)}</b>, ${esc(T("step {step} of {steps}",
        { step: view.trick.step, steps: view.trick.steps }))}: <span class="muted">${esc(view.trick.text)}</span></div>` : "";
    const hand = view.hand.dice.length || view.hand.held.length || view.hand.set_aside
      ? `<div class="hand"><span class="hand-label">${esc(T("In hand:"))}</span> ${view.hand.dice.map((v) => die(v, "big")).join("")}
         ${view.hand.held.map((v) => die(v, "big held")).join("")}
         ${view.hand.set_aside ? `<span class="muted">${esc(T("+{n} set aside", { n: view.hand.set_aside }))}</span>` : ""}</div>` : "";
    const players = view.players.map((p) => player(p, view, me)).join("");
    return `<div class="middle card">
        <div class="tiles">${tiles(view)}</div>
        <div class="middle-row">
          <div class="deck"><span class="label">${esc(T("Deck top"))}</span> ${deck}<span class="muted">${esc(T("{n} below", { n: view.deck.left }))}</span></div>
          <div class="supply"><span class="label">${esc(T("Supply"))}</span> ${esc(P("{n} die", "{n} dice", view.supply.dice))} · ${BONE} ${esc(P("{n} treat", "{n} treats", view.supply.treats))}</div>
          <div class="turn-no"><span class="label">${esc(T("Turn"))}</span> ${view.turn}</div>
        </div>
        ${trick}${hand}
      </div>
      <div class="players">${players}</div>`;
  }

  const GROUPS = [
    ["trick", "Choose a trick"], ["score", "Score"], ["reroll", "Reroll"], ["place", "Place a die"],
    ["bury", "Bury a die"], ["choose", "Choose"], ["pick", "Choose dice"], ["dig", "Dig"], ["move", "Move a die"],
    ["take", "Take a die"], ["continue", "Go on"], ["stop", "Go on"],
  ];

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
    return `<h2 class="headline">${STAR} ${esc(s.headline)}</h2>
      <p>${esc(T("{turns}, {moves}.", { turns: P("{n} turn", "{n} turns", s.turns), moves: P("{n} move", "{n} moves", s.moves) }))}</p>
      <table class="summary"><thead><tr><th>${esc(T("Player"))}</th><th>${esc(T("Scored"))}</th><th>${esc(T("Busts"))}</th><th>${esc(T("Treats"))}</th><th>${esc(T("Dogs scored"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p>${replay ? `<a class="button primary" id="open-replay" href="/t/${esc(table)}/replay">${esc(T("Watch the replay"))}</a>` : ""}
      <a class="button" href="/">${esc(T("Back to the lobby"))}</a></p>`;
  }

  function logLines(lines, start) {
    return lines.map((l, i) => `<li value="${start + i + 1}">${esc(l)}</li>`).join("");
  }

  return { esc, die, board, controls, end, logLines };
})();
