// Playing the Spots table by touch, mouse or keyboard. Tap (or drag) a die: the places it may go light
// up; tap one to play. Everything offered is a move the server listed (view.legal); this file only
// matches a move's text to the objects it names (a die in the tray, a dog, a yard, a space).
"use strict";

const Play = (() => {
  let hooks = null;
  let root = null;
  let view = null;
  let me = null;
  let links = [];      // [{move, label, src, dst}] for moves made by picking up a die
  let selected = null; // the source key picked up ("tray:4", "space:rex:3", "yard:0:5")
  let drag = null;
  const esc = (s) => Spots.esc(s);
  const ACTIONS = new Set(["score", "reroll", "continue", "stop", "choose", "pick", "discard", "set-aside", "dig"]);

  /** Which object a move starts from and where it goes (null: played by tapping the source alone). */
  function link(move) {
    const p = move.split(" ");
    const tray = view.hand.dice.map(String);
    if (p[0] === "place") return { src: `tray:${p[1]}`, dst: `dog:${p[2]}` };
    if (p[0] === "bury") return { src: `tray:${p[1]}`, dst: `yard:${me}` };
    if (p[0] === "choose" && tray.includes(p[1])) return { src: `tray:${p[1]}`, dst: null };
    if (p[0] === "take" && p[1] === "yard") return { src: `yard:${me}:${p[2]}`, dst: null };
    if (p[0] === "take") return { src: `space:${p[1]}:${p[2]}`, dst: null };
    if (p[0] === "move") return { src: `space:${p[1]}:${p[2]}`, dst: `space:${p[3]}:${p[4]}` };
    return null;
  }

  function targetEl(dst) {
    if (dst.startsWith("dog:")) return root.querySelector(`.dogcard[data-dog="${CSS.escape(dst.slice(4))}"]`);
    if (dst.startsWith("yard:")) return root.querySelector(`.yard-patch[data-key="${CSS.escape(dst)}"]`);
    return root.querySelector(`.well[data-key="${CSS.escape(dst)}"]`);
  }

  /** After each redraw: mark the dice that can be picked up, and fill the tray's action buttons. */
  function arm(board, v, seat, busy) {
    root = board;
    view = v;
    me = seat;
    selected = null;
    document.body.classList.remove("sending");
    const mine = !v.over && me !== null && v.to_move === me && !busy;
    board.classList.toggle("waiting-table", !mine);
    links = [];
    const actions = [];
    if (mine) {
      for (const b of v.legal) {
        const l = link(b.move);
        if (l) links.push({ move: b.move, label: b.label, ...l });
        else if (ACTIONS.has(b.move.split(" ")[0])) actions.push(b);
      }
    }
    const sources = new Set(links.map((l) => l.src));
    board.querySelectorAll("[data-src]").forEach((el) => {
      const on = sources.has(el.dataset.src);
      el.classList.toggle("src", on);
      if (el.tagName === "BUTTON") el.disabled = !on;
      else if (on) { el.tabIndex = 0; el.setAttribute("role", "button"); }
    });
    const box = board.querySelector("#tray-actions");
    if (box) {
      box.innerHTML = actions.map((b) => `<button type="button" class="move ${esc(b.group)}" data-move="${esc(b.move)}">${esc(b.label)}</button>`).join("");
      const tip = sources.size ? T("Tap a die, then a lit dog or your yard. Or drag it there.") : "";
      if (tip) box.insertAdjacentHTML("beforebegin", `<p class="tray-hint">${esc(tip)}</p>`);
    }
    const tray = board.querySelector(".tray");  // on a phone the tray is fixed to the bottom: keep the page clear of it
    document.body.style.paddingBottom = tray && getComputedStyle(tray).position === "fixed" ? `${tray.offsetHeight + 8}px` : "";
    const trayKeys = new Set([...sources].filter((s) => s.startsWith("tray:")));
    if (trayKeys.size === 1) select([...trayKeys][0]);  // one kind of die: it is already in hand
  }

  function disarm() {
    if (!root) return;
    clearLit();
    root.querySelectorAll(".src").forEach((el) => { el.classList.remove("src"); if (el.tagName === "BUTTON") el.disabled = true; });
    root.classList.add("waiting-table");
    links = [];
  }

  function clearLit() {
    root.querySelectorAll(".lit").forEach((el) => {
      el.classList.remove("lit", "busting");
      el.removeAttribute("data-play");
      if (!el.matches("[data-move]")) { el.removeAttribute("role"); el.removeAttribute("tabindex"); el.removeAttribute("aria-label"); }
    });
    root.querySelectorAll(".die.selected").forEach((el) => el.classList.remove("selected"));
    root.querySelectorAll(".yard-preview").forEach((el) => { el.textContent = ""; el.classList.remove("busts"); });
  }

  /** Pick up a die: light every place it may go; a die with one tap-only move plays at once. */
  function select(src, el) {
    clearLit();
    const mine = links.filter((l) => l.src === src);
    if (!mine.length) return false;
    const direct = mine.find((l) => l.dst === null);
    if (direct && el) { hooks.sendMove(direct.move); return true; }
    selected = src;
    const dieEl = el || root.querySelector(`[data-src="${CSS.escape(src)}"]`);
    if (dieEl) dieEl.classList.add("selected");
    for (const l of mine) {
      if (!l.dst) continue;
      const t = targetEl(l.dst);
      if (!t) continue;
      t.classList.add("lit");
      t.dataset.play = l.move;
      if (l.dst.startsWith("dog:")) {  // the card is the big target for a finger; its space is the keyboard's
        const well = t.querySelector(`.well[data-key="${CSS.escape(`space:${l.dst.slice(4)}:${src.split(":")[1]}`)}"]`);
        if (well) { well.classList.add("lit"); well.dataset.play = l.move; }
      } else if (!t.matches("[data-move]")) { t.setAttribute("role", "button"); t.tabIndex = 0; t.setAttribute("aria-label", l.label); }
      if (l.dst.startsWith("yard:")) preview(t, Number(src.split(":")[1]), l.label);
    }
    showTargets();
    return true;
  }

  /** On a small screen, bring the lit dogs into view (above the tray that sticks to the bottom). */
  function showTargets() {
    const first = root.querySelector(".dogcard.lit") || root.querySelector(".lit");
    if (!first) return;
    const r = first.getBoundingClientRect();
    const tray = root.querySelector(".tray");
    const bottom = tray && getComputedStyle(tray).position === "fixed" ? tray.getBoundingClientRect().top : window.innerHeight;
    if (r.top < 0 || r.bottom > bottom) window.scrollBy({ top: r.top - Math.max(8, (bottom - r.height) / 2), behavior: "auto" });
  }

  function preview(yardEl, v, label) {
    const p = view.players[me];
    const total = p.yard_total + v;
    const out = yardEl.querySelector(".yard-preview");
    const busts = total > view.rules.bust_limit;
    yardEl.classList.toggle("busting", busts);
    if (out) {
      out.textContent = busts ? T("→ {total}: busts!", { total }) : T("→ {total}", { total });
      out.classList.toggle("busts", busts);
    }
    yardEl.setAttribute("aria-label", label);
  }

  function playAt(el) {
    const t = el && el.closest(".lit");
    if (t && t.dataset.play) { hooks.sendMove(t.dataset.play); return true; }
    return false;
  }

  function refuse(src) {
    const v = src.split(":").pop();
    const where = links.filter((l) => l.src === src).map((l) => l.label).join(" · ");
    hooks.toast(T("A {v} cannot go there.", { v }) + (where ? " " + T("It can: {moves}", { moves: where }) : ""));
  }

  // ------------------------------------------------------------- tiles: text one tap away

  function tilePop(tileEl) {
    closePop();
    const t = view && view.tiles.find((x) => x.name === tileEl.dataset.tile);
    if (!t) return;
    const pop = document.createElement("div");
    pop.className = "tile-pop";
    pop.id = "tile-pop";
    pop.setAttribute("role", "dialog");
    pop.setAttribute("aria-label", t.title);
    pop.innerHTML = `<h3>${esc(t.title)}${t.face_up ? "" : ` <small>(${esc(T("face down"))})</small>`}</h3><p>${esc(t.text)}</p>
      <div class="pop-actions">${t.move && !document.body.classList.contains("sending") ? `<button type="button" class="primary" data-pop-move="${esc(t.move)}">${esc(T("Do this trick"))}</button>` : ""}
      <button type="button" data-pop-close>${esc(T("Close"))}</button></div>`;
    document.body.appendChild(pop);
    const r = tileEl.getBoundingClientRect();
    pop.style.left = `${Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8))}px`;
    pop.style.top = `${window.scrollY + r.bottom + 6}px`;
    (pop.querySelector("[data-pop-move]") || pop.querySelector("[data-pop-close]")).focus();
  }

  function closePop() {
    const old = document.getElementById("tile-pop");
    if (old) old.remove();
  }

  const touchFirst = () => window.matchMedia("(hover: none)").matches;

  // ------------------------------------------------------------- events

  function onClick(e) {
    if (drag && drag.moved) return;
    const popBtn = e.target.closest("[data-pop-move], [data-pop-close]");
    if (popBtn) {
      closePop();
      if (popBtn.dataset.popMove) hooks.sendMove(popBtn.dataset.popMove);
      return;
    }
    if (!e.target.closest(".tile-pop")) closePop();
    const tileEl = e.target.closest(".felt .tile");
    if (tileEl) {
      if (tileEl.dataset.move && !touchFirst() && !document.body.classList.contains("sending")) hooks.sendMove(tileEl.dataset.move);
      else tilePop(tileEl);
      return;
    }
    if (!root || !root.contains(e.target)) return;
    const src = e.target.closest(".src[data-src]");
    if (src) {
      if (selected === src.dataset.src && !src.classList.contains("selected")) selected = null;
      select(src.dataset.src, src);
      return;
    }
    if (playAt(e.target)) return;
    if (selected && !e.target.closest("[data-move]")) { clearLit(); selected = null; }
  }

  function onKey(e) {
    if (e.key === "Escape") { closePop(); if (root) clearLit(); selected = null; return; }
    if (e.key !== "Enter" && e.key !== " ") return;
    const t = e.target;
    if (t.matches && t.matches(".felt .tile") && !t.dataset.move) { e.preventDefault(); tilePop(t); return; }
    if (t.matches && t.matches(".src[data-src]:not(button)")) { e.preventDefault(); select(t.dataset.src, t); return; }
    if (t.matches && t.matches(".lit[data-play]:not([data-move])")) { e.preventDefault(); playAt(t); }
  }

  function onDown(e) {
    const src = e.target.closest && e.target.closest(".felt .src[data-src]");
    if (!src || e.button > 0) return;
    drag = { src, x: e.clientX, y: e.clientY, moved: false, ghost: null };
  }

  function onMove(e) {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      select(drag.src.dataset.src);
      const r = drag.src.getBoundingClientRect();
      drag.ghost = document.createElement("span");
      drag.ghost.className = "drag-ghost";
      drag.ghost.innerHTML = Art.die(Number(drag.src.dataset.src.split(":").pop()));
      drag.ghost.style.width = `${r.width}px`;
      drag.ghost.style.height = `${r.height}px`;
      drag.home = r;
      document.body.appendChild(drag.ghost);
      drag.src.classList.add("dragging");
    }
    drag.ghost.style.left = `${e.clientX - drag.home.width / 2}px`;
    drag.ghost.style.top = `${e.clientY - drag.home.height / 2}px`;
    e.preventDefault();
  }

  function onUp(e) {
    if (!drag) return;
    const d = drag;
    if (!d.moved) { drag = null; return; }
    const under = document.elementFromPoint(e.clientX, e.clientY);
    d.src.classList.remove("dragging");
    if (!playAt(under)) {
      if (under && under.closest(".dogcard, .yard-patch, .well")) refuse(d.src.dataset.src);
      const g = d.ghost;
      const back = g.animate([{ transform: "none" }, { transform: `translate(${d.home.left - parseFloat(g.style.left)}px, ${d.home.top - parseFloat(g.style.top)}px)` }],
        { duration: Motion.quiet() ? 0 : 300, easing: "cubic-bezier(.3,1.6,.5,1)" });
      back.onfinish = () => g.remove();
    } else {
      d.ghost.remove();
    }
    setTimeout(() => { drag = null; }, 0);  // the click that follows a drag is not a tap
  }

  function init(h) {
    hooks = h;
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("pointermove", onMove, { passive: false });
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", () => { if (drag && drag.ghost) drag.ghost.remove(); drag = null; });
  }

  return { init, arm, disarm, tilePop, link };
})();
