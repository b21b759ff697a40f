// The table page: one WebSocket to the server, redraw (with motion) on every state it pushes, and
// play by tapping, dragging or the keyboard. Reconnects by itself; the server resends everything.
// Other scripts (the tutorial) listen through window.SpotsTable.
"use strict";

(() => {
  const body = document.body.dataset;
  const table = body.table;
  const token = body.token || "";
  let me = body.seat === "" ? null : Number(body.seat);
  let view = null;
  let log = [];
  let ws = null;
  let busy = false;
  let retry = 0;
  let hintAsked = false;  // a hint was asked, and neither it nor its refusal has come back yet
  const listeners = { state: [], hint: [], error: [], message: [], open: [] };  // message: every message (clocks.js, talk.js)
  const $ = (id) => document.getElementById(id);

  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
  }

  function undoNote(text) {  // why an undo was refused, until the next position
    const n = $("undo-note");
    n.textContent = text;
    n.hidden = false;
  }

  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "bad");
  }

  // Keyboard focus survives a redraw: any change (a move, a spectator arriving) redraws the board and the
  // controls, and without this a keyboard player's focus would fall back to the page's top. The element of the
  // same identity in the new drawing gets it back, where there still is one.
  const IDENTITY = ["data-move", "data-src", "data-key", "id"];

  function focused() {
    const el = document.activeElement;
    const root = el && el.closest && el.closest("#board, #controls");
    const attr = root && IDENTITY.find((a) => el.hasAttribute(a));
    return attr ? { root: root.id, attr, value: el.getAttribute(attr) } : null;
  }

  function refocus(was) {
    if (!was || (document.activeElement && document.activeElement !== document.body)) return;
    const same = [...$(was.root).querySelectorAll(`[${was.attr}]`)].find((e) => e.getAttribute(was.attr) === was.value);
    if (same && !same.disabled) same.focus({ preventScroll: true });
  }

  // What the page last drew. A state that changes nothing (a player's arrival told again, shortly after) is
  // not redrawn: replacing the board under a finger would lose a tap in progress or a die picked up.
  let shown = "";

  function draw(prev) {
    if (!view) return;
    const drawing = JSON.stringify([view, me, busy]);
    if (drawing === shown) return;
    shown = drawing;
    const was = focused();
    document.body.dataset.moves = view.moves;
    document.body.dataset.over = view.over ? "1" : "0";
    $("status").textContent = view.status;
    const R = rendererFor(view);
    document.body.dataset.game = view.game;
    const snap = prev && R.before ? R.before($("board")) : null;  // a game's own motion, if it has any
    $("board").innerHTML = R.board(view, me);
    $("controls").innerHTML = R.controls(view, me, busy);
    if (R.after) R.after(prev, view, snap, $("board"), me, busy);
    const end = $("end");
    end.hidden = !view.over;
    end.innerHTML = R.end(view, table, true) + (view.absent || []).map((line) => `<p class="absent">${Page.esc(line)}</p>`).join("");
    $("replay-link").hidden = !view.over;
    if (view.over && typeof Coach !== "undefined") Coach.open(table, $("coach"));  // "How did it go?" under the end screen
    // Hint: on the player's own turn, where the table lets the advisor answer (never at a rated table)
    const advisor = document.body.dataset.hints !== "rated" && document.body.dataset.hints !== "off";
    $("hint-button").hidden = !advisor || me === null || view.over || view.to_move !== me || view.claim;
    // Undo: only while the game's rule lets this seat take back a move (the server says who, in view.undo).
    const undo = $("undo-button");
    undo.hidden = me === null || view.over || !view.undo || view.undo.seat !== me;
    undo.disabled = busy;
    if (view.to_move !== me) $("hints").hidden = true;
    // Resign: a seated player's, until the game is over (final: the server refuses anything after it)
    const resigned = view.resigned || [];
    $("resign-button").hidden = me === null || view.over || (view.resigned_seats || []).includes(me);
    $("resign-note").hidden = view.over || !resigned.length;
    $("resign-note").textContent = resigned.join(" ");
    refocus(was);
  }

  function appendLog(start, lines) {
    const list = $("log");
    if (start === 0) { log = []; list.innerHTML = ""; }
    log = log.concat(lines);
    list.insertAdjacentHTML("beforeend", Page.logLines(lines, start));
    const panel = list.parentElement;
    panel.scrollTop = panel.scrollHeight;
    list.scrollTop = list.scrollHeight;
  }

  function onMessage(event) {
    let msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (listeners.message.map((f) => f(msg) === true).includes(true)) return;  // true: handled (talk.js)
    if (msg.type === "hello") {
      me = msg.seat;
    } else if (msg.type === "state") {
      if (msg.log_start !== 0 && msg.log_start !== log.length) {
        ws.send(JSON.stringify({ type: "sync" }));  // missed something: ask for everything
        return;
      }
      const prev = view;
      view = msg.view;
      busy = false;
      if (!prev || prev.moves !== view.moves) $("undo-note").hidden = true;
      appendLog(msg.log_start, msg.log);
      draw(prev && msg.log_start !== 0 ? prev : null);
      SpotsSound.heard(rendererFor(view), prev, view, me);
      listeners.state.forEach((f) => f(view, prev, msg.log));
    } else if (msg.type === "error") {
      busy = false;
      const handled = listeners.error.map((f) => f(msg) === true).includes(true);  // e.g. the tutorial's own hints
      const forHint = hintAsked && /^(hint-|not-your-turn$)/.test(msg.code || "");
      if (forHint) hintAsked = false;
      if (!handled && forHint) hintPanel(`<p class="hint-refused" role="status">${Page.esc(msg.message)}</p>`);
      else if (!handled && msg.code === "undo-refused") undoNote(msg.message);  // beside the buttons, not over the board
      else if (!handled) toast(msg.message);
      draw(null);
      if (["unknown-table", "bad-token", "signed-out", "not-your-seat"].includes(msg.code)) { retry = -1; setConn(T("not available"), false); }
    } else if (msg.type === "hint") {
      hintAsked = false;
      if (!listeners.hint.some((f) => f(msg))) showHints(msg);
    }
  }

  // The advisor's panel always has its title and a close button: while it thinks, with the ranking, or with why a
  // hint was refused (a refusal must never leave "Thinking…" over the buttons).
  function hintPanel(body) {
    const h = $("hints");
    h.innerHTML = `<h2>${Page.esc(T("Advisor"))} <button type="button" class="close" id="close-hints" aria-label="${Page.esc(T("Close"))}">×</button></h2>
      ${body}`;
    h.hidden = false;
    $("close-hints").onclick = () => { h.hidden = true; };
  }

  function showHints(msg) {
    if (!view || msg.moves !== view.moves) return;
    hintPanel(rendererFor(view).hints(msg.advice));
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // The page's own language, said outright: a browser may send another Accept-Language on a WebSocket.
    const query = new URLSearchParams({lang: document.documentElement.lang || "en"});
    if (token) query.set("token", token);
    const url = `${proto}//${location.host}/ws/${encodeURIComponent(table)}?${query}`;
    ws = new WebSocket(url);
    ws.onopen = () => { retry = 0; setConn(T("live"), true); listeners.open.forEach((f) => f()); };
    ws.onmessage = onMessage;
    ws.onclose = () => {
      busy = false;
      if (retry < 0) return;
      setConn(T("reconnecting…"), false);
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 500 * retry);
    };
  }

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function sendMove(move) {
    if (!ws || ws.readyState !== WebSocket.OPEN || busy || !view) return;
    busy = true;
    shown = "";  // the controls say "sending…" now: whatever comes back is drawn
    $("hints").hidden = true;
    ws.send(JSON.stringify({ type: "move", move, at: view.moves }));
    $("controls").innerHTML = rendererFor(view).controls(view, me, busy);
    document.body.classList.add("sending");
    const R = rendererFor(view);
    if (R.disarm) R.disarm();
  }

  document.addEventListener("click", (e) => {
    if (e.target.closest("#board .tile, .tile-pop")) return;  // tiles: a game's own play (a tap may show the text first)
    const el = e.target.closest("[data-move]");
    if (el && !el.disabled && me !== null && !el.closest("#board [data-src]")) sendMove(el.dataset.move);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches("[data-move][role=button]")) {
      e.preventDefault();
      sendMove(e.target.dataset.move);
    }
  });
  SpotsSound.button($("sound-button"));
  $("undo-button").addEventListener("click", () => {
    if (busy || !view || !view.undo) return;
    if (send({ type: "undo", at: view.moves })) {
      busy = true;
      shown = "";
      $("undo-button").disabled = true;
    }
  });
  $("hint-button").addEventListener("click", () => {
    if (send({ type: "hint" })) {
      hintAsked = true;
      hintPanel(`<p>${Page.esc(T("Thinking…"))}</p>`);
    }
  });
  $("resign-button").addEventListener("click", () => $("resign-confirm").showModal());
  $("resign-confirm").addEventListener("close", () => {
    if ($("resign-confirm").returnValue === "resign") send({ type: "resign" });
  });
  for (const R of Object.values(Renderers)) if (R.init) R.init({ sendMove, toast });  // a game's own hand play
  window.SpotsTable = {
    on: (kind, f) => listeners[kind].push(f),
    send, sendMove, toast,
    view: () => view, me: () => me,
    connected: () => !!ws && ws.readyState === WebSocket.OPEN,  // a script loaded after the socket opened asks this
  };
  connect();
})();
