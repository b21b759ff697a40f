// The lobby: the create-table form and the live list of tables (polled from /api/tables).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
  const botsOf = window.SPOTS_BOTS || { spots: ["random", "greedy"] };
  const botLabels = window.SPOTS_BOT_LABELS || {};  // "Bot: greedy (easy)", translated, by game and bot
  const about = window.SPOTS_GAMES || {};  // each game's title, goal words and whether it can end in a draw
  const game = () => $("game").value;
  // The chosen game's options (generated from its options schema on the server: lobby.html).
  const block = () => document.querySelector(`.game-options[data-game="${game()}"]`);

  function seatCount() {
    const b = block();
    const by = b.dataset.seatsOption && b.querySelector(`[name="${b.dataset.seatsOption}"]`);
    return by ? Number(by.value) : Number(b.dataset.seats);
  }

  function seatRows() {
    const bots = botsOf[game()] || [];
    const n = seatCount();
    const box = $("seats");
    const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
      kind: row.querySelector("select").value, name: row.querySelector("input").value,
      open: row.querySelector("input.open").checked, invite: Boolean(row.querySelector("input.invite")?.checked),
    }));
    const fallback = bots.includes("greedy") ? "bot:greedy" : `bot:${bots[0]}`;
    let html = "";
    for (let i = 0; i < n; i++) {
      const prev = old[i] || { kind: i === 0 ? "human" : fallback, name: "" };
      if (prev.kind !== "human" && !bots.includes(prev.kind.slice(4))) prev.kind = fallback;  // not in this game
      const options = [["human", T("Human")], ...bots.map((b) => [`bot:${b}`, (botLabels[game()] || {})[b] || T("Bot: {bot}", { bot: b })])]
        .map(([v, t]) => `<option value="${v}"${prev.kind === v ? " selected" : ""}>${t}</option>`).join("");
      html += `<div class="seat-row"><span class="seat-no">${esc(T("Seat {n}", { n: i + 1 }))}</span>
        <select name="seat-${i}" aria-label="${esc(T("seat {n} player", { n: i + 1 }))}">${options}</select>
        <input name="name-${i}" maxlength="24" placeholder="${esc(T("name (optional)"))}" value="${esc(prev.name)}"
          aria-label="${esc(T("seat {n} name", { n: i + 1 }))}">
        <label class="open-seat" title="${esc(box.dataset.openTitle)}"><input type="checkbox" class="open"
          name="open-${i}"${prev.open ? " checked" : ""}> ${esc(box.dataset.openLabel)}</label>${box.dataset.inviteLabel
          ? `<label class="invite-seat" title="${esc(box.dataset.inviteTitle)}"><input type="checkbox" class="invite"
          name="invite-${i}"${prev.invite ? " checked" : ""}> ${esc(box.dataset.inviteLabel)}</label>` : ""}</div>`;
    }
    box.innerHTML = html;
  }

  // Opening a seat or inviting an account to it is for a person: ticking either makes the seat a human one (a bot
  // seat once went out as a bot, silently, with no invitation), and choosing a bot unticks both.
  $("seats").addEventListener("change", (e) => {
    const row = e.target.closest(".seat-row");
    if (!row) return;
    const select = row.querySelector("select");
    if (e.target.matches("input.open, input.invite") && e.target.checked) select.value = "human";
    if (e.target === select && select.value !== "human") {
      for (const box of row.querySelectorAll("input.open, input.invite")) box.checked = false;
    }
  });

  function showPicks() {  // a menu set to "custom" shows the items to tick
    for (const box of document.querySelectorAll(".custom-picks")) box.hidden = $(box.dataset.for).value !== "custom";
  }

  function showGame() {
    const g = game();
    for (const el of document.querySelectorAll(".game-options")) el.hidden = el.dataset.game !== g;
    for (const el of document.querySelectorAll(".game-blurb")) el.hidden = el.id !== `blurb-${g}`;
    seatRows();
  }

  $("game").addEventListener("change", showGame);
  for (const el of document.querySelectorAll(".game-options select")) {
    el.addEventListener("change", () => { showPicks(); if (el.name === block().dataset.seatsOption) seatRows(); });
  }
  showPicks();
  showGame();

  function options() {  // the chosen game's fields, by option name (empty boxes keep the game's default)
    const out = {};
    for (const el of block().querySelectorAll("select[name], input[type=number][name]")) {
      if (el.value === "") continue;
      out[el.name] = el.dataset.kind === "int" ? Number(el.value) : el.value;
      const picks = document.querySelector(`.custom-picks[data-for="${el.id}"]`);
      if (picks && el.value === "custom") out[el.name] = [...picks.querySelectorAll("input:checked")].map((c) => c.value);
    }
    return out;
  }

  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    const seats = [...form.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector("select").value;
      const name = row.querySelector("input").value.trim();
      const open = row.querySelector("input.open").checked;
      const invite = Boolean(row.querySelector("input.invite")?.checked);  // signed in: keep it for that account
      if (kind !== "human" && !open && !invite) return { kind: "bot", bot: kind.slice(4), name };
      return invite ? { kind: "human", name, open, invite: name } : { kind: "human", name, open };
    });
    // your own seat: the first human seat you neither opened to anyone nor invited someone to (none: you only host)
    const mine = seats.findIndex((s) => s.kind === "human" && !s.open && s.invite === undefined);
    const body = { game: game(), seats, options: options(), creator_seat: mine < 0 ? null : mine, clock: $("clock").value,
      rated: $("rated").checked, hints: !$("rated").checked && $("hints").value === "on", bots_join: $("bots-join").checked };
    if ($("rated").checked && $("min-finished").value) body.min_finished = Number($("min-finished").value);
    $("create").disabled = true;
    try {
      const r = await fetch("/api/tables", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await r.json();
      if (!r.ok) { $("create-error").textContent = data.message; return; }
      localStorage.setItem("spots-host:" + data.id, data.host.split("/").pop());  // lets talk.js mute for the host
      // Alone with bots, nothing needs sharing: straight to your seat (the host page lists links to send).
      const own = data.seats.find((s) => s.mine && s.link);
      const friends = data.seats.some((s) => s.kind === "human" && !s.mine);
      location.href = own && !friends ? own.link : data.host;
    } catch (err) {
      $("create-error").textContent = T("Could not reach the server.");
    } finally {
      $("create").disabled = false;
    }
  });

  // A seat's name in the reader's words: a deleted account's, or a seat nobody named (stored without a name).
  function seatName(p) {
    if (p.deleted) return T("deleted player");
    if (!p.unnamed) return p.name;
    return p.bot ? T("{bot} bot", { bot: p.bot }) : T("Player {n}", { n: p.seat + 1 });
  }

  function row(t) {
    const g = about[t.game] || { title: t.game, goal: ["first to {n}", "first to {n}"], draws: false };
    const players = t.players.map((p) => {
      const name = seatName(p);
      const who = p.kind === "bot" && !p.unnamed ? `${esc(name)} <span class="muted">(${esc(p.bot)})</span>` : esc(name);
      const join = p.free ? ` <button type="button" class="join" data-table="${t.id}" data-seat="${p.seat}">${esc(T("Join"))}</button>` : "";
      return `<span class="lp">${who} ★${p.scored}${join}</span>`;
    }).join(" · ");
    const named = (seat) => (seat === null || seat === undefined ? null : seatName(t.players[seat]));
    const winner = named(t.winner_seat);
    const state = t.status === "over" ? esc(g.draws && !winner ? T("a draw") : T("won by {who}", { who: winner || T("nobody") }))
      : esc(T("turn {turn}, {who} to move", { turn: t.turn, who: named(t.to_move_seat) || "" }));
    const links = t.status === "over"
      ? `<a class="button" href="/t/${t.id}/replay">${esc(T("Replay"))}</a> <a class="button" href="/t/${t.id}">${esc(T("Final table"))}</a>`
        + (t.next ? ` <a class="button next-game" href="/t/${esc(t.next)}">${esc(T("Next game"))}</a>` : "")
      : `<a class="button" href="/t/${t.id}">${esc(T("Watch"))}</a>`;
    const goal = g.goal[0] === g.goal[1] ? T(g.goal[0], { n: t.target }) : P(g.goal[0], g.goal[1], t.target);
    const pace = t.clock ? ` · <span class="pace">⏱ ${esc((window.SPOTS_PACES || {})[t.clock] || t.clock)}</span>` : "";
    const title = g.title;
    const hints = t.hints === "rated" ? ` · <span class="no-hints">${esc(T("no hints: rated"))}</span>`
      : t.hints === "off" ? ` · <span class="no-hints">${esc(T("no hints"))}</span>` : "";
    const finish = (t.min_finished ? ` · <span class="min-finished">${esc(T("players who finish {share}%", { share: t.min_finished }))}</span>` : "")
      + (t.bots_join ? ` · <span class="bots-join">${esc(T("bots may join"))}</span>` : "");
    return `<li class="table-row" data-table="${t.id}" data-game="${esc(t.game)}"><div><b>${esc(T("Table {id}", { id: t.id }))}</b>
      <span class="game-name">${esc(title)}</span>
      <span class="muted">${esc(goal)} · ${esc(P("{n} move", "{n} moves", t.moves))} · ${state} · ${esc(P("{n} watching", "{n} watching", t.viewers))}${pace}${hints}${finish}</span></div>
      <div class="lps">${players}</div><div class="links">${links}</div></li>`;
  }

  function fill(id, rows) {
    $(id).innerHTML = rows.length ? rows.map(row).join("") : `<li class="empty">${esc(T("None yet."))}</li>`;
  }

  async function refresh() {
    try {
      const r = await fetch("/api/tables");
      const data = await r.json();
      fill("open-tables", data.tables.filter((t) => t.status === "open"));
      fill("running-tables", data.tables.filter((t) => t.status === "playing"));
      fill("finished-tables", data.tables.filter((t) => t.status === "over"));
    } catch (e) { /* the next poll tries again */ }
  }

  document.addEventListener("click", async (e) => {
    const b = e.target.closest("button.join");
    if (!b) return;
    // signed in, the seat takes the account's name; a guest names themself for this table
    const signedIn = Boolean(document.querySelector("main.lobby").dataset.me);
    const name = signedIn ? "" : prompt(T("Your name at this table (optional):")) || "";
    const r = await fetch(`/api/tables/${b.dataset.table}/join`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: Number(b.dataset.seat), name }),
    });
    const data = await r.json();
    if (r.ok) location.href = data.link;
    else alert(data.error === "seat-taken" ? T("Seat {n} is no longer free.", { n: Number(b.dataset.seat) + 1 }) : data.message);
  });

  // My turn queue: the tables waiting on the seats this browser holds (their links, kept by clocks.js), oldest first.
  async function turns() {
    const seats = JSON.parse(localStorage.getItem("spots-seats") || "[]");
    if (!seats.length) return;
    try {
      const r = await fetch("/api/turns", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats }),
      });
      const waiting = (await r.json()).tables || [];
      const when = (t) => new Date(t * 1000).toLocaleString(window.SPOTS_LANG);
      $("turn-queue").innerHTML = waiting.length ? waiting.map((w) => `<li class="table-row" data-table="${esc(w.table)}">
        <a href="${esc(w.link)}">${esc(T("Table {id}", { id: w.table }))}</a> <span class="game-name">${esc(w.title)}</span>
        <span class="muted">${esc(w.name)} · ${esc(T("waiting since {when}", { when: when(w.since) }))}</span></li>`).join("")
        : `<li class="empty">${esc(T("No table is waiting for you."))}</li>`;
      const next = $("next-game");
      next.hidden = !waiting.length;
      if (waiting.length) next.href = waiting[0].link;
    } catch (e) { /* the next poll tries again */ }
  }

  refresh();
  turns();
  setInterval(refresh, 3000);
  setInterval(turns, 3000);
})();
