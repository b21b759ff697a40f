// Table talk, "Play again" and the rating news on the table page, over the table's own WebSocket (table.js).
// Every text from a person is put in the page with textContent, never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const table = document.body.dataset.table;
  const hostKey = "spots-host:" + table;
  let mine = null;  // this connection's author key
  let host = false;
  let muted = [];
  let lines = [];
  const signedIn = document.body.dataset.signedIn === "1";
  let reporting = null;  // the chat line the report dialog is about

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function who(line) {
    if (line.channel === "watchers") return T("Spectator {id}", { id: line.name });
    return line.name || T("Player {n}", { n: line.seat + 1 });  // a seat nobody named, in the reader's words
  }

  function drawLine(line) {
    const li = el("li", "talk-line talk-" + line.channel);  // prefixed: a bare "players" is the mats' grid
    li.dataset.author = line.author;
    li.append(el("b", "talk-who", who(line)), document.createTextNode(": "), el("span", "talk-text", line.text));
    if (line.channel === "watchers") li.prepend(el("span", "talk-channel", T("(spectators)") + " "));
    if (host && line.author !== mine) {
      const b = el("button", "talk-mute", muted.includes(line.author) ? T("Unmute") : T("Mute"));
      b.type = "button";
      b.dataset.author = line.author;
      li.append(" ", b);
    }
    if (signedIn && line.author !== mine && line.id !== undefined) {  // report it to the host (fairplay/reports.py)
      const r = el("button", "talk-report", T("Report"));
      r.type = "button";
      r.dataset.line = line.id;
      r.title = T("Report this line to the server's host");
      li.append(" ", r);
    }
    return li;
  }

  function drawAll() {
    const list = $("talk-lines");
    list.replaceChildren(...lines.map(drawLine));
    list.scrollTop = list.scrollHeight;
  }

  function onMessage(msg) {
    if (msg.type === "chat-history") {
      lines = msg.lines; mine = msg.author; host = msg.host; muted = msg.muted;
      $("talk-watchers").checked = msg.watchers;
      drawAll();
      return true;
    }
    if (msg.type === "chat") {
      lines.push(msg.line);
      $("talk-lines").append(drawLine(msg.line));
      $("talk-lines").scrollTop = $("talk-lines").scrollHeight;
      return true;
    }
    if (msg.type === "muted") { muted = msg.muted; drawAll(); return true; }
    if (msg.type === "rematch") { showRematch(msg); return true; }
    if (msg.type === "ratings") { showRatings(msg); return true; }
    return false;
  }

  function showRematch(msg) {
    const box = $("rematch");
    box.hidden = false;
    const status = $("rematch-status");
    if (msg.next) {
      if (msg.host) localStorage.setItem("spots-host:" + msg.next, msg.host.split("/").pop());
      status.replaceChildren(el("span", "", T("Everyone said yes: the new table is ready.") + " "));
      const a = el("a", "button", T("Go to the new table"));
      a.href = msg.link;
      a.id = "rematch-link";
      status.append(a);
      $("rematch-button").hidden = true;
      if (window.SpotsTable.me() !== null) location.href = msg.link;  // players are taken to their new seat
      return;
    }
    const me = window.SpotsTable.me();
    const said = me !== null && msg.accepted.includes(me);
    $("rematch-button").disabled = said;
    const seats = msg.waiting_seats || [];
    const others = msg.waiting.filter((name, i) => seats[i] !== me).join(", ");
    if (me !== null && seats.includes(me)) {  // the viewer's own yes is missing: say so to them, not by name
      status.textContent = others ? T("Waiting for you and {names}", { names: others }) : T("Waiting for you");
    } else {
      status.textContent = others ? T("Waiting for: {names}", { names: others }) : "";
    }
  }

  function showRatings(msg) {
    const box = $("rating-news");
    box.hidden = false;
    const list = $("rating-list");
    list.replaceChildren(...msg.changes.map((c) => {
      const name = c.bot ? T("Bot: {bot}", { bot: c.player }) : c.player;
      const li = el("li", "rating-change", `${name}: ${c.before} → ${c.after}`);
      li.dataset.player = c.player;
      return li;
    }));
  }

  window.SpotsTable.on("message", onMessage);
  function askForTheTalk() {  // the talk so far, the rematch and the ratings; then each new line
    const secret = localStorage.getItem(hostKey);
    window.SpotsTable.send(secret ? { type: "host", token: secret } : { type: "talk" });
  }
  window.SpotsTable.on("open", askForTheTalk);  // on every (re)connect
  if (window.SpotsTable.connected()) askForTheTalk();  // the socket opened while this script was still loading
  window.SpotsTable.on("state", (view) => {  // players are offered a rematch at the end; spectators see one made
    if (view.over && window.SpotsTable.me() !== null) $("rematch").hidden = false;
  });

  const isPlayer = document.body.dataset.seat !== "";
  $("talk-watchers-row").hidden = !isPlayer;
  $("talk-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("talk-text").value;
    if (text.trim() && window.SpotsTable.send({ type: "chat", text })) $("talk-text").value = "";
  });
  $("talk-phrases").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-phrase]");
    if (b) window.SpotsTable.send({ type: "chat", phrase: b.dataset.phrase });
  });
  $("talk-lines").addEventListener("click", (e) => {
    const b = e.target.closest("button.talk-mute");
    if (b) window.SpotsTable.send({ type: "mute", author: b.dataset.author, on: !muted.includes(b.dataset.author) });
  });
  $("talk-lines").addEventListener("click", (e) => {
    const b = e.target.closest("button.talk-report");
    if (!b) return;
    reporting = b.dataset.line;
    $("report-why").value = "";
    $("report-said").textContent = "";
    $("report-dialog").showModal();
  });
  $("report-form").addEventListener("submit", async (e) => {
    if (e.submitter && e.submitter.value !== "send") return;  // Cancel closes the dialog
    e.preventDefault();
    const r = await fetch("/api/reports", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ table, line: reporting, why: $("report-why").value }) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { $("report-said").textContent = data.message || String(r.status); return; }
    $("report-dialog").close();
    window.SpotsTable.toast(T("Sent: the host reads it."));
  });
  $("talk-watchers").addEventListener("change", (e) => {
    window.SpotsTable.send({ type: "watchers", on: e.target.checked });
  });
  $("rematch-button").addEventListener("click", () => {
    if (window.SpotsTable.send({ type: "rematch" })) $("rematch-button").disabled = true;
  });
})();
