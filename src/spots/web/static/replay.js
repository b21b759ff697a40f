// The replay viewer: asks the server for the position after N moves and draws it.
"use strict";

(() => {
  const table = document.body.dataset.table;
  let total = Number(document.body.dataset.total);
  let at = 0;
  let timer = null;
  let loading = 0;
  let side = 0;  // whose side of the table is drawn, for a game where each seat sees its own (WebView.per_seat_view)
  let talk = [];  // the table talk, each line with the number of moves made when it was said
  const $ = (id) => document.getElementById(id);

  async function show(n) {
    n = Math.max(0, Math.min(total, n));
    const ticket = ++loading;
    const r = await fetch(`/api/tables/${encodeURIComponent(table)}/replay?at=${n}&side=${side}`);
    if (!r.ok || ticket !== loading) return;
    const data = await r.json();
    at = data.at;
    total = data.total;
    const v = data.view;
    document.body.dataset.at = at;
    $("slider").max = total;
    $("slider").value = at;
    $("pos").textContent = at;
    $("total").textContent = total;
    $("move-text").textContent = data.move || T("(start)");
    $("move-words").textContent = at ? data.log[at - 1] : T("The table before the first card is dealt.");
    $("status").textContent = v.status;
    const R = rendererFor(v);
    document.body.dataset.game = v.game;
    $("board").innerHTML = R.board(v, null);
    $("end").hidden = !v.over;
    $("end").innerHTML = R.end(v, table, false);
    $("log").innerHTML = Page.logLines(data.log, 0);
    showTalk();
    const last = $("log").lastElementChild;
    if (last) { last.classList.add("current"); showInPanel(last); }
    if (typeof Coach !== "undefined") Coach.at(at);
  }

  // Scroll the log panel alone to the current line: scrollIntoView would scroll the page too,
  // and on a phone (log below the board) that took the controls off screen.
  function showInPanel(line) {
    const panel = line.closest(".log-panel");
    const box = panel.getBoundingClientRect();
    const at = line.getBoundingClientRect();
    if (at.bottom > box.bottom) panel.scrollTop += at.bottom - box.bottom;
    else if (at.top < box.top) panel.scrollTop -= box.top - at.top;
  }

  function setPlaying(on) {
    $("play").querySelector("use").setAttribute("href", on ? "#i-pause" : "#i-play");
    $("play").querySelector(".play-word").textContent = on ? T("Pause") : T("Play");
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; setPlaying(false); return; }
    setPlaying(true);
    timer = setInterval(() => {
      if (at >= total) { play(); return; }
      show(at + 1);
    }, 400);
  }

  // The talk said up to this step, put in with textContent (people's words are never HTML).
  function showTalk() {
    $("talk-lines").replaceChildren(...talk.filter((l) => l.moves <= at).map((l) => {
      const li = document.createElement("li");
      li.className = "talk-line talk-" + l.channel;  // prefixed: a bare "players" is the mats' grid
      const who = document.createElement("b");
      who.textContent = l.channel === "watchers" ? T("Spectator {id}", { id: l.name }) : l.name;
      li.append(who, document.createTextNode(": " + l.text));
      return li;
    }));
  }

  fetch(`/api/tables/${encodeURIComponent(table)}/chat`).then((r) => (r.ok ? r.json() : null)).then((data) => {
    if (!data) return;
    talk = data.lines;
    showTalk();
    if (data.next) { $("next-game").href = `/t/${encodeURIComponent(data.next)}`; $("next-game").hidden = false; }
  });

  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(total);
  $("play").onclick = play;
  $("flip").onclick = () => { side = 1 - side; show(at); };
  $("slider").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, select, textarea")) return;  // the slider moves itself
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  // A mistake on the end screen links here with ?at=<step>: start at that position.
  const start = Number(new URLSearchParams(location.search).get("at"));
  show(Number.isInteger(start) && start > 0 ? start : 0);
  if (document.body.dataset.coached === "1" && typeof Coach !== "undefined") Coach.open(table, $("coach"), $("coach-chart"), show);
})();
