// The table's clocks and your-turn notices: every player's time (the running one counts down here between the
// server's states), the choice for a player out of time, "take my seat back", the tab's title and icon on your
// turn, a browser notification when the page is hidden (once the player allowed it), and Web Push where the
// host configured it. It listens through window.SpotsTable (table.js) and the seat list of localStorage feeds
// the lobby's turn queue.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const table = document.body.dataset.table;
  const token = document.body.dataset.token || "";
  const baseTitle = document.title;
  let clock = null;
  let received = 0;
  let myTurn = false;

  if (token) {  // this browser holds this seat: the lobby's "your turn" list asks the server about it
    const seats = JSON.parse(localStorage.getItem("spots-seats") || "[]").filter((t) => t !== token);
    localStorage.setItem("spots-seats", JSON.stringify([token, ...seats].slice(0, 100)));
  }

  function shown(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    if (s >= 86400) return T("{d} d {h} h", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
    if (s >= 3600) return T("{h} h {m} min", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  const AWAY = { out: "out of time", bot: "a bot plays", skip: "turns skipped" };

  function drawClocks() {
    const box = $("clocks");
    if (!clock) { box.hidden = true; return; }
    const me = window.SpotsTable.me();
    const elapsed = (Date.now() - received) / 1000;
    box.hidden = false;
    box.innerHTML = clock.seats.map((s, i) => {
      const running = clock.running === i;
      const left = running ? s.left - elapsed : s.left;
      const away = s.away ? ` <span class="away-note">${Page.esc(T(AWAY[s.away]))}</span>` : "";
      let act = "";
      if (s.away === "out" && clock.may_choose && me !== i) {
        act = ` <button type="button" data-absent="${i}" data-choice="bot">${Page.esc(T("A bot plays for them"))}</button>`
          + ` <button type="button" data-absent="${i}" data-choice="skip">${Page.esc(T("Skip their turns"))}</button>`;
      }
      if (s.away && me === i) act = ` <button type="button" id="take-back">${Page.esc(T("Take my seat back"))}</button>`;
      return `<div class="clock${running ? " running" : ""}${s.away ? " away" : ""}" data-seat="${i}">`
        + `<span class="clock-name">${Page.esc(s.name)}</span> <span class="clock-time" role="timer">${shown(left)}</span>${away}${act}</div>`;
    }).join("");
  }

  function turnNotice(view) {
    const me = window.SpotsTable.me();
    const mine = me !== null && !view.over && (view.to_move === me || (view.claim && view.legal && view.legal.length > 0));
    const icon = document.querySelector("link[rel=icon]");
    document.title = mine ? `● ${T("Your turn")} · ${baseTitle}` : baseTitle;
    if (icon) icon.href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
    document.body.dataset.myTurn = mine ? "1" : "0";
    if (mine && !myTurn && document.hidden && window.Notification && Notification.permission === "granted") {
      const n = new Notification(T("Your turn at table {id}", { id: table }), { body: view.status, tag: `spots-${table}` });
      n.onclick = () => { window.focus(); n.close(); };
    }
    myTurn = mine;
  }

  async function allowNotices() {
    if (window.Notification && Notification.permission === "default") await Notification.requestPermission();
    const key = document.body.dataset.vapid;
    if (key && "serviceWorker" in navigator && window.PushManager && Notification.permission === "granted") {
      const reg = await navigator.serviceWorker.register("/sw.js");
      const raw = Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: raw });
      await fetch("/api/push", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat: token, subscription: sub }),
      });
    }
    drawBell();
  }

  function drawBell() {
    const bell = $("notify-button");
    if (!bell) return;
    bell.hidden = !token || !window.Notification || Notification.permission !== "default";
  }

  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-absent]");
    if (b) window.SpotsTable.send({ type: "absent", for: Number(b.dataset.absent), choice: b.dataset.choice });
    if (e.target.closest("#take-back")) window.SpotsTable.send({ type: "back" });
    if (e.target.closest("#notify-button")) allowNotices();
  });
  window.SpotsTable.on("message", (msg) => {
    if (msg.type !== "state") return;
    clock = msg.clock || null;
    received = Date.now();
    drawClocks();
    turnNotice(msg.view);
  });
  drawBell();
  setInterval(() => { if (clock && clock.running !== null) drawClocks(); }, 250);
})();
