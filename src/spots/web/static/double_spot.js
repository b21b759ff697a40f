// Drawing a Double Spot view sent by the server: the frame from this viewer's side, the two cards,
// the die and each player's cards. No rules live here: a column can be clicked only when the server
// listed a drop into it (data-move), and the move text is the server's.
"use strict";

const DoubleSpot = (() => {
  const esc = Spots.esc;
  const LETTER = { B: "blue", G: "green", P: "pink", Y: "yellow" };

  function disc(colour, cls = "") {
    return `<span class="disc ${colour ? esc(colour) : "empty"} ${cls}"></span>`;
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

  function die(d) {
    if (!d) return `<span class="ds-die pending" title="${esc(T("Roll pending"))}">?</span>`;
    const cls = d.colours.length > 1 ? `split ${d.colours.join("-")}` : d.colours[0];
    return `<span class="ds-die ${esc(cls)}" title="${esc(d.label)}" aria-label="${esc(d.label)}"></span>
      <span class="die-label">${esc(d.label)}</span>`;
  }

  function frame(view) {
    const cols = view.columns.map((c) => {
      const one = c.drops.length === 1 ? c.drops[0] : null;
      const click = one ? ` clickable" data-move="${esc(one.move)}" role="button" tabindex="0` : "";
      const label = T("Column {n}", { n: c.n });
      const arrows = c.drops.map((d) => `<button type="button" class="drop ${esc(d.colour)}" data-move="${esc(d.move)}"
          aria-label="${esc(label)}: ${esc(d.label)}" title="${esc(label)}: ${esc(d.label)}">▼</button>`).join("");
      let cells = "";
      for (let r = 0; r < view.rows; r++) cells += disc(c.discs[r] || "");
      return `<div class="ds-column" data-column="${c.n}">
          <div class="drops">${arrows}</div>
          <div class="slot${c.drops.length ? " open" : ""}${click}" aria-label="${esc(label)}">${cells}</div>
          <div class="col-no">${c.n}</div></div>`;
    }).join("");
    return `<div class="frame" style="--rows: ${view.rows}">${cols}</div>`;
  }

  function player(p, view, me) {
    const toMove = view.to_move === p.seat;
    const badge = p.kind === "bot" ? `<span class="badge bot">${esc(T("{bot} bot", { bot: p.bot }))}</span>`
      : `<span class="badge ${p.online ? "online" : "offline"}">${esc(p.online ? T("online") : (p.claimed ? T("away") : T("free seat")))}</span>`;
    return `<section class="player ds-player${toMove ? " to-move" : ""}${me === p.seat ? " me" : ""}" data-seat="${p.seat}">
      <header><span class="pname">${esc(p.name)}${me === p.seat ? esc(T(" (you)")) : ""}</span> ${badge}
        ${toMove ? `<span class="badge turn">${esc(T("to move"))}</span>` : ""}</header>
      <div class="stats"><span class="stat">${esc(T("Cards won"))}: <b class="card-count">${p.score}</b>/${view.rules.target}</span></div>
      <div class="won">${p.won.map((id) => `<span class="won-card">${esc(id)}</span>`).join(" ") || `<span class="muted">${esc(T("None yet."))}</span>`}</div>
    </section>`;
  }

  function board(view, me) {
    const cards = view.cards.map((c) => `<div class="holder"><span class="label">${esc(T("Holder {n}", { n: c.holder }))}</span>
      ${card(c.rows, c.id)}</div>`).join("");
    return `<div class="middle card ds-middle">
        <div class="ds-top">
          <div class="ds-cards"><span class="label">${esc(T("Pattern cards"))}</span><div class="holders">${cards}</div>
            <span class="muted">${esc(P("{n} card left in the deck", "{n} cards left in the deck", view.deck_left))}</span></div>
          <div class="ds-die-box"><span class="label">${esc(T("Die"))}</span> ${die(view.die)}</div>
          <div class="turn-no"><span class="label">${esc(T("Turn"))}</span> ${view.turn + 1}</div>
        </div>
        <p class="side muted">${esc(T("Seen from {who}'s side", { who: view.side_name }))}</p>
        ${frame(view)}
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

  return { board, controls, end, logLines: Spots.logLines, esc };
})();

// The renderer for a view: each game draws its own table; the page scripts only pick.
function rendererFor(view) {
  return view && view.game === "double-spot" ? DoubleSpot : Spots;
}
