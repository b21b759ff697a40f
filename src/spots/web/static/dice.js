// Dice you can check (web/fairplay/dice.py): the table's fingerprint, the players' salts, and once the game is
// over its seed and "Check the dice". A seated player's page makes a salt and adds it 10 s after the page opens
// (at once with "Add my salt"; a salt typed over the made one is used instead). On a table page it listens through
// window.SpotsTable; on the replay it reads the dice once.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const table = document.body.dataset.table;
  let info = null;  // the server's {commitment, salts, seed?, names}
  let timer = null;
  const live = window.SpotsTable;  // absent on the replay page

  function madeSalt() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function addSalt() {
    if (timer) { clearTimeout(timer); timer = null; }
    const salt = ($("dice-salt").value || "").trim() || madeSalt();
    live.send({ type: "salt", salt });
  }

  function draw() {
    if (!info || !info.commitment) return;
    const names = info.names || [];
    $("dice-salts").textContent = info.salts.length
      ? T("Salts: {salts}", { salts: info.salts.map((s) => `${names[s.seat] || s.seat}: ${s.salt}`).join(" · ") })
      : T("No salt yet.");
    const me = live ? live.me() : null;
    const mine = $("dice-mine");
    if (mine) {
      const said = info.salts.some((s) => s.seat === me);
      mine.hidden = said || !!info.seed;
      if (said || info.seed) { if (timer) { clearTimeout(timer); timer = null; } }
      else if (!timer && me !== null) {
        if (!$("dice-salt").value) $("dice-salt").value = madeSalt();
        timer = setTimeout(addSalt, 10000);
      }
    }
    const seed = $("dice-seed");
    seed.hidden = !info.seed;
    seed.querySelector("code").textContent = info.seed || "";
    $("dice-check").hidden = !info.seed;
  }

  async function load() {
    try {
      const r = await fetch(`/api/tables/${table}/dice`);
      if (r.ok) { info = await r.json(); draw(); }
    } catch (err) { /* the next state asks again */ }
  }

  async function check() {
    const verdict = $("dice-verdict");
    verdict.textContent = T("Checking…");
    try {
      const r = await fetch(`/api/tables/${table}/dice/check`);
      const data = await r.json();
      verdict.dataset.ok = data.ok ? "1" : "0";
      verdict.textContent = !r.ok ? data.message
        : data.ok ? T("All {n} chance events match the fingerprint shown before the first roll.", { n: data.events })
          : T("The dice do not match: {why}", { why: data.words });
    } catch (err) {
      verdict.textContent = T("Could not reach the server.");
    }
  }

  const add = $("dice-add");
  if (add) add.addEventListener("click", addSalt);
  $("dice-check").addEventListener("click", check);
  if (!live) { load(); return; }  // the replay: a finished game's dice, read once
  live.on("message", (msg) => {
    if (msg.type === "dice") { info = msg; draw(); }
  });
  let over = null;
  live.on("state", (view) => {  // first drawn, and again when the game ends (the seed is out)
    if (info === null || (view.over && over === false)) load();
    over = view.over;
  });
})();
