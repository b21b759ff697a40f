// Motion for the Spots table: before each redraw the page notes where things are; after it, whatever
// changed between the two views moves from where it was to where it is now (a roll tumbles into the
// tray, a die flies to its space or the yard, a bust shakes the mat and sweeps the dice to the supply,
// scoring turns cards over, a drawn dog slides in from the deck, a used tile flips).
// prefers-reduced-motion: nothing moves. No rules here: only differences between two server views.
"use strict";

const Motion = (() => {
  const quiet = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const rect = (el) => (el ? el.getBoundingClientRect() : null);

  /** Where the dice, dogs and piles are now (call just before the board is redrawn). */
  function before(root) {
    const snap = { dice: [], dogs: new Map(), supply: rect(root.querySelector("[data-key=supply]")), deck: rect(root.querySelector("[data-key=deck]")) };
    root.querySelectorAll(".tray-die, .well.filled .die, .yard-dice .die").forEach((el) => {
      const owner = el.closest("[data-seat]");
      snap.dice.push({ v: Number(el.dataset.v), rect: rect(el), where: el.closest(".tray") ? "tray" : "table", seat: owner ? Number(owner.dataset.seat) : null, taken: false });
    });
    root.querySelectorAll(".dogcard").forEach((el) => snap.dogs.set(el.dataset.dog, rect(el)));
    return snap;
  }

  function fly(from, to, v, fade) {
    if (!from || !to) return;
    const ghost = document.createElement("span");
    ghost.className = "drag-ghost";
    ghost.innerHTML = Art.die(v);
    ghost.style.left = `${from.left}px`;
    ghost.style.top = `${from.top}px`;
    ghost.style.width = `${from.width}px`;
    ghost.style.height = `${from.height}px`;
    document.body.appendChild(ghost);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2), dy = to.top + to.height / 2 - (from.top + from.height / 2);
    const anim = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) rotate(200deg) scale(.6)`, opacity: fade ? 0 : 1 }],
      { duration: 600, easing: "cubic-bezier(.3,.6,.4,1)" });
    anim.onfinish = () => ghost.remove();
  }

  function arrive(el, from) {
    const to = rect(el);
    if (!from || !to) return;
    el.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(1.25)` }, { transform: "none" }],
      { duration: 450, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  /** A die that was somewhere before and is gone now: the likely origin of a die that appears. */
  function takeOrigin(snap, v, prefer) {
    const pick = snap.dice.find((d) => !d.taken && d.v === v && d.where === prefer)
      || snap.dice.find((d) => !d.taken && d.v === v && d.where === "tray");
    if (pick) { pick.taken = true; return pick.rect; }
    return snap.supply;
  }

  function counts(list) {
    const m = new Map();
    for (const v of list) m.set(v, (m.get(v) || 0) + 1);
    return m;
  }

  function contains(big, small) {  // is the multiset `small` inside `big`?
    const m = counts(big);
    return small.every((v) => { const n = m.get(v) || 0; m.set(v, n - 1); return n > 0; });
  }

  /** Animate what changed from `prev` to `view` (call just after the board is redrawn). */
  function after(prev, view, snap, root) {
    if (!prev || !snap || quiet() || view.game !== "spots" || prev.game !== "spots") return;
    if (view.hand.dice.length && !contains(prev.hand.dice, view.hand.dice)) {
      root.querySelectorAll(".tray-die").forEach((el, i) => {
        el.style.animationDelay = `${i * 45}ms`;
        el.classList.add("tumble");
      });
    }
    view.players.forEach((p, seat) => {
      const old = prev.players[seat];
      if (!old) return;
      const mat = root.querySelector(`.mat[data-seat="${seat}"]`);
      if (p.busts > old.busts) bust(snap, seat, mat, p.name);
      const oldDogs = new Map(old.dogs.map((d) => [d.name, d]));
      for (const d of p.dogs) {
        const card = root.querySelector(`.dogcard[data-dog="${CSS.escape(d.name)}"]`);
        const was = oldDogs.get(d.name);
        if (!card) continue;
        if (!was) {
          const from = snap.deck, to = rect(card);
          if (from && to) {
            card.style.setProperty("--dx", `${from.left - to.left}px`);
            card.style.setProperty("--dy", `${from.top - to.top}px`);
          }
          card.classList.add("drawn");
          continue;
        }
        if (d.scored && !was.scored) {
          card.classList.add("just-scored");
          for (const s of was.spaces) if (s.filled) fly(rect(card), snap.supply, s.v, true);
          continue;
        }
        d.spaces.forEach((s, i) => {
          if (s.filled && !was.spaces[i].filled) {
            const el = card.querySelector(`.well[data-key="space:${CSS.escape(d.name)}:${s.v}"] .die`);
            if (el) arrive(el, takeOrigin(snap, s.v, "tray"));
          }
        });
      }
      if (p.busts === old.busts) {
        const have = counts(old.yard);
        const els = mat ? [...mat.querySelectorAll(".yard-dice .die")] : [];
        els.forEach((el) => {
          const v = Number(el.dataset.v);
          const n = have.get(v) || 0;
          if (n > 0) { have.set(v, n - 1); return; }
          arrive(el, takeOrigin(snap, v, "tray"));
        });
      }
    });
    view.tiles.forEach((t, i) => {
      const was = prev.tiles[i];
      if (was && was.name === t.name && was.face_up !== t.face_up) {
        const el = root.querySelector(`.tile[data-tile="${CSS.escape(t.name)}"]`);
        if (el) el.classList.add("flipping");
      }
    });
  }

  function bust(snap, seat, mat, name) {
    if (mat) mat.classList.add("shake");
    for (const d of snap.dice) if (d.seat === seat && d.where === "table") fly(d.rect, snap.supply, d.v, true);
    const banner = document.createElement("div");
    banner.className = "bust-banner";
    banner.setAttribute("aria-hidden", "true");
    banner.textContent = T("{who} busts!", { who: name });
    document.body.appendChild(banner);
    banner.animate([{ transform: "translate(-50%, -50%) scale(.4)", opacity: 0 }, { transform: "translate(-50%, -50%) scale(1.1)", opacity: 1, offset: 0.3 },
      { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration: 1300 }).onfinish = () => banner.remove();
  }

  return { before, after, quiet };
})();
