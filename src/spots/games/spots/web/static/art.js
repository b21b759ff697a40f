// The table's drawings, made in code: dice, dogs (from dogs.js), card backs, tile icons and
// rosettes, bones, the supply, the treat pile and the deck. Original art; each function returns SVG text.
"use strict";

const Art = (() => {
  let uid = 0;  // clip-path ids must be unique in the page
  const PIPS = {
    1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]],
    4: [[7, 7], [17, 7], [7, 17], [17, 17]], 5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
    6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]],
  };

  /** A die face with pips (cls "well": the faint wanted face printed on a dog's space). */
  function die(v, cls = "") {
    const pips = (PIPS[v] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2"/>`).join("");
    return `<svg class="die-face ${cls}" viewBox="0 0 24 24" aria-hidden="true"><rect x="1" y="1" width="22" height="22" rx="5"/>`
      + `<g class="pips">${pips}</g></svg>`;
  }

  const BODY = {  // shape -> body ellipse (cx, cy, rx, ry), leg length, head size
    round: [52, 40, 26, 16, 12, 13], long: [54, 42, 33, 12, 9, 12], tall: [52, 36, 23, 14, 17, 13],
    small: [54, 44, 19, 12, 9, 11], fluffy: [52, 40, 26, 16, 11, 14],
  };

  /** One dog, side view, from its looks: body, coat, spots, ears, tail and collar. */
  function dog(title, extraCls = "") {
    const L = (window.SPOTS_DOG_LOOKS || {})[title] || { shape: "round", coat: "#d9a86c", spot: "#5e4030", pattern: "spots", ears: "flop", tail: "up", collar: "#e24b4b" };
    const [cx, cy, rx, ry, leg, hr] = BODY[L.shape] || BODY.round;
    const id = `dc${++uid}`;
    const ink = "#3d3633";
    const hx = cx - rx + 2, hy = cy - ry - hr * 0.35;  // head centre, front (left)
    const legs = [cx - rx * 0.65, cx - rx * 0.3, cx + rx * 0.3, cx + rx * 0.65].map((x, i) =>
      `<rect x="${x - 3.2}" y="${cy + ry * 0.4}" width="6.4" height="${ry * 0.6 + leg}" rx="3" fill="${i % 3 ? L.coat : L.coat}"/>`
      + (L.pattern === "socks" ? `<rect x="${x - 3.2}" y="${cy + ry + leg - 5}" width="6.4" height="5" rx="2.5" fill="${L.spot}"/>` : "")).join("");
    const tx = cx + rx - 2, ty = cy - ry * 0.4;
    const tail = {
      up: `<path d="M${tx} ${ty} q10 -4 12 -18" stroke="${L.coat}" stroke-width="5" fill="none" stroke-linecap="round"/>`,
      curl: `<circle cx="${tx + 6}" cy="${ty - 8}" r="6" stroke="${L.coat}" stroke-width="4.5" fill="none"/>`,
      down: `<path d="M${tx} ${ty} q12 4 10 20" stroke="${L.coat}" stroke-width="5" fill="none" stroke-linecap="round"/>`,
      stub: `<path d="M${tx} ${ty} l7 -6" stroke="${L.coat}" stroke-width="6" fill="none" stroke-linecap="round"/>`,
    }[L.tail] || "";
    let body = `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${L.coat}"/>`;
    if (L.shape === "fluffy") {
      body += [0, 1, 2, 3, 4].map((i) => `<circle cx="${cx - rx + 6 + i * (rx * 2 - 12) / 4}" cy="${cy - ry + 3}" r="6" fill="${L.coat}"/>`).join("");
    }
    const spotDots = {
      spots: [[-0.4, -0.2, 0.32], [0.25, 0.1, 0.42], [0.55, -0.45, 0.26], [-0.05, 0.55, 0.22]],
      patch: [[0.3, -0.2, 0.85]],
      speckle: [[-0.5, -0.3, 0.1], [-0.2, 0.3, 0.1], [0.1, -0.4, 0.1], [0.4, 0.2, 0.1], [0.65, -0.2, 0.1], [-0.35, 0.5, 0.1], [0.2, 0.55, 0.1], [-0.7, 0.1, 0.1], [0.5, -0.6, 0.1]],
    }[L.pattern] || [];
    let marks = spotDots.map(([x, y, r]) => `<circle cx="${cx + x * rx}" cy="${cy + y * ry}" r="${r * ry}" fill="${L.spot}"/>`).join("");
    if (L.pattern === "saddle") marks = `<ellipse cx="${cx + 3}" cy="${cy - ry * 0.7}" rx="${rx * 0.75}" ry="${ry * 0.75}" fill="${L.spot}"/>`;
    const clip = `<clipPath id="${id}"><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}"/></clipPath>`;
    const ear = {
      flop: `<ellipse cx="${hx + hr * 0.55}" cy="${hy + 1}" rx="${hr * 0.38}" ry="${hr * 0.75}" fill="${L.pattern === "none" ? shade(L.coat) : L.spot}" transform="rotate(-18 ${hx + hr * 0.55} ${hy})"/>`,
      pointy: `<path d="M${hx + 1} ${hy - hr * 0.6} l5 -${hr * 0.95} l4 ${hr * 0.95}z" fill="${shade(L.coat)}"/>`,
      long: `<ellipse cx="${hx + hr * 0.5}" cy="${hy + hr * 0.45}" rx="${hr * 0.35}" ry="${hr * 1.0}" fill="${shade(L.coat)}"/>`,
      fold: `<path d="M${hx - 2} ${hy - hr * 0.8} q8 -6 12 2 q-6 0 -7 6z" fill="${shade(L.coat)}"/>`,
    }[L.ears] || "";
    const eyePatch = L.pattern === "eyepatch" ? `<circle cx="${hx - hr * 0.2}" cy="${hy - hr * 0.15}" r="${hr * 0.42}" fill="${L.spot}"/>` : "";
    const head = `<circle cx="${hx}" cy="${hy}" r="${hr}" fill="${L.coat}"/>${eyePatch}`
      + `<ellipse cx="${hx - hr * 0.85}" cy="${hy + hr * 0.3}" rx="${hr * 0.6}" ry="${hr * 0.42}" fill="${L.coat}"/>`
      + `<circle cx="${hx - hr * 1.35}" cy="${hy + hr * 0.15}" r="${hr * 0.2}" fill="${ink}"/>`
      + `<circle cx="${hx - hr * 0.25}" cy="${hy - hr * 0.18}" r="${hr * 0.13}" fill="${ink}"/>`
      + `<path d="M${hx - hr * 1.1} ${hy + hr * 0.6} q${hr * 0.3} ${hr * 0.25} ${hr * 0.6} 0" stroke="${ink}" stroke-width="1.2" fill="none"/>`;
    const collar = `<path d="M${hx + hr * 0.35} ${hy + hr * 0.55} q4 6 3 12" stroke="${L.collar}" stroke-width="3.5" fill="none" stroke-linecap="round"/>`;
    return `<svg class="dog-art ${extraCls}" viewBox="0 0 100 70" aria-hidden="true"><defs>${clip}</defs>`
      + `<ellipse cx="52" cy="${cy + ry + leg + 2}" rx="34" ry="3" fill="rgba(0,0,0,.12)"/>`
      + `${tail}${legs}<g stroke="rgba(0,0,0,.25)" stroke-width="0.6">${body}</g><g clip-path="url(#${id})">${marks}</g>${ear}${head}${collar}</svg>`;
  }

  function shade(hex) {  // a darker tone of a coat, for ears
    const n = parseInt(hex.slice(1), 16);
    const f = (c) => Math.max(0, Math.round(c * 0.72)).toString(16).padStart(2, "0");
    return `#${f(n >> 16)}${f((n >> 8) & 255)}${f(n & 255)}`;
  }

  const PAW_SHAPES = '<ellipse cx="10" cy="13.5" rx="4.6" ry="3.8"/><circle cx="4" cy="8.5" r="2"/><circle cx="8" cy="4.8" r="2"/>'
    + '<circle cx="12" cy="4.8" r="2"/><circle cx="16" cy="8.5" r="2"/>';
  const PAW = `<svg class="paw-print" viewBox="0 0 20 20" aria-hidden="true">${PAW_SHAPES}</svg>`;
  const BONE_PATH = "M5 2.5a2.5 2.5 0 0 1 4.6 1.3h4.8A2.5 2.5 0 1 1 19 7a2.5 2.5 0 1 1-4.6 3.2H9.6A2.5 2.5 0 1 1 5 7 2.5 2.5 0 0 1 5 2.5z";
  const BONE = `<svg class="bone" viewBox="0 0 24 14" aria-hidden="true"><path d="${BONE_PATH}"/></svg>`;

  /** n bones stacked (at most `most` drawn, the rest as a number). */
  function bones(n, most = 5) {
    if (!n) return "";
    const shown = Math.min(n, most);
    let g = "";
    const h = 16 + (shown - 1) * 6;
    for (let i = 0; i < shown; i++) g += `<path d="${BONE_PATH}" transform="translate(${i % 2 ? 3 : 1} ${h - 15 - i * 6}) rotate(${i % 2 ? -6 : 5} 12 7)"/>`;
    return `<span class="bones"><svg viewBox="0 0 28 ${h}" aria-hidden="true">${g}</svg>${n > most ? `<b>+${n - most}</b>` : ""}</span>`;
  }

  /** The back of a dog card (a scored dog turned over): paw prints on colour, a star. */
  function cardBack() {
    let paws = "";
    for (let y = 0; y < 4; y++) for (let x = 0; x < 3; x++) {
      paws += `<g transform="translate(${8 + x * 28 + (y % 2) * 14} ${6 + y * 22}) scale(.7)">${PAW_SHAPES}</g>`;
    }
    return `<svg class="card-back-art" viewBox="0 0 100 90" aria-hidden="true">`
      + `<g fill="rgba(255,255,255,.22)">${paws}</g><path d="M50 10l7.5 15.5 17 2.2-12.5 11.8 3.2 16.9L50 48.2 34.8 56.4l3.2-16.9-12.5-11.8 17-2.2z" fill="#f5c542" stroke="#fff" stroke-width="2"/></svg>`;
  }

  // Rosettes: each colour group has its own pattern on the face-up side.
  const ROSETTE = {
    red: (c) => petals(5, 9, c, "ellipse"),
    yellow: (c) => petals(12, 10, c, "ray"),
    purple: (c) => petals(8, 9, c, "diamond"),
    green: (c) => petals(4, 9, c, "leaf"),
    blue: (c) => petals(6, 9, c, "ring"),
  };
  function petals(n, r, c, kind) {
    let g = "";
    for (let i = 0; i < n; i++) {
      const a = (360 / n) * i;
      if (kind === "ellipse") g += `<ellipse cx="12" cy="5.5" rx="3.6" ry="5" transform="rotate(${a} 12 12)"/>`;
      else if (kind === "ray") g += `<path d="M11 1h2l-1 7z" transform="rotate(${a} 12 12)"/>`;
      else if (kind === "diamond") g += `<path d="M12 1l2.4 5-2.4 4-2.4-4z" transform="rotate(${a} 12 12)"/>`;
      else if (kind === "leaf") g += `<path d="M12 12c-5-3-5-9 0-10.5 5 1.5 5 7.5 0 10.5z" transform="rotate(${a} 12 12)"/>`;
      else g += `<circle cx="12" cy="4.5" r="3.2" transform="rotate(${a} 12 12)"/>`;
    }
    return `<svg class="rosette" viewBox="0 0 24 24" aria-hidden="true"><g fill="${c}">${g}</g><circle cx="12" cy="12" r="${r / 3}" fill="#fffdf8"/></svg>`;
  }
  const ROSETTE_INK = { red: "#b8372c", yellow: "#c98f00", purple: "#7a4fb8", green: "#2f8a3c", blue: "#2f6fb8" };

  // One icon per trick (24x24, drawn with simple shapes).
  const ICONS = {
    howl: '<path d="M15 3a9 9 0 1 0 6 15A7 7 0 0 1 15 3z"/><circle cx="7" cy="6" r="1"/><circle cx="4" cy="12" r=".8"/>',
    "roll-over": '<path d="M12 3a9 9 0 1 1-8.5 6" fill="none" stroke="currentColor" stroke-width="2.6"/><path d="M1 6l3.5 4 3.5-4z"/>',
    walk: '<ellipse cx="7" cy="16" rx="3" ry="4.5"/><ellipse cx="16" cy="8" rx="3" ry="4.5"/><circle cx="6" cy="9.5" r="1.3"/><circle cx="15" cy="1.8" r="1.3"/>',
    trot: '<path d="M2 8h14l-3-3m3 3-3 3M22 16H8l3-3m-3 3 3 3" fill="none" stroke="currentColor" stroke-width="2.4"/>',
    dig: '<path d="M14 2l8 8-3 3-8-8z"/><path d="M12 8l-8 8c-2 2-1 5 1 6s4 1 6-1l8-8z"/>',
    retrieve: '<rect x="2" y="10" width="20" height="4" rx="2" transform="rotate(-30 12 12)"/><circle cx="4" cy="17" r="2.5"/><circle cx="20" cy="7" r="2.5"/>',
    track: '<circle cx="10" cy="10" r="6" fill="none" stroke="currentColor" stroke-width="2.6"/><path d="M14 14l7 7" stroke="currentColor" stroke-width="3"/>',
    run: '<path d="M3 7h9M1 12h9M3 17h9" stroke="currentColor" stroke-width="2"/><circle cx="17" cy="12" r="5"/>',
    chase: '<circle cx="6" cy="12" r="3"/><circle cx="13" cy="12" r="4"/><circle cx="20" cy="12" r="3"/>',
    bolt: '<path d="M13 1L4 14h7l-2 9 10-14h-7z"/>',
    dogpile: '<rect x="3" y="14" width="8" height="8" rx="2"/><rect x="13" y="14" width="8" height="8" rx="2"/><rect x="8" y="5" width="8" height="8" rx="2"/>',
    sprint: '<path d="M4 4l8 8-8 8M12 4l8 8-8 8" fill="none" stroke="currentColor" stroke-width="2.8"/>',
    beg: '<path d="M12 21s-8-5-8-11a4.5 4.5 0 0 1 8-3 4.5 4.5 0 0 1 8 3c0 6-8 11-8 11z"/>',
    chew: `<path d="${BONE_PATH}" transform="translate(0 5)"/>`,
    gobble: '<path d="M3 11h18a9 9 0 0 1-18 0z"/><rect x="2" y="9" width="20" height="2.5" rx="1"/>',
    "play-dead": '<ellipse cx="12" cy="15" rx="9" ry="5"/><path d="M6 8l2 2m0-2-2 2M16 8l2 2m0-2-2 2" stroke="currentColor" stroke-width="1.6"/>',
    stay: '<rect x="4" y="4" width="16" height="16" rx="3" fill="none" stroke="currentColor" stroke-width="2.6"/><rect x="9" y="9" width="6" height="6"/>',
    fetch: '<circle cx="12" cy="12" r="8"/><path d="M5 9c4 2 10 2 14 0M5 15c4-2 10-2 14 0" stroke="#fff" stroke-width="1.4" fill="none"/>',
    guard: '<path d="M12 2l8 3v7c0 5-4 8-8 10-4-2-8-5-8-10V5z"/>',
    hunt: '<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="4.5" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="1.5"/>',
    scavenge: '<path d="M4 9h16l-2 12H6z"/><path d="M9 9V5h6v4" fill="none" stroke="currentColor" stroke-width="2"/>',
    search: '<text x="12" y="18" text-anchor="middle" font-size="17" font-weight="700" font-family="sans-serif">8</text>',
  };

  function tileIcon(name) {
    return `<svg class="tile-icon" viewBox="0 0 24 24" aria-hidden="true">${ICONS[name] || '<circle cx="12" cy="12" r="6"/>'}</svg>`;
  }

  /** The supply: a little heap of dice. */
  function diceHeap() {
    const d = (x, y, r, v) => `<g transform="translate(${x} ${y}) rotate(${r} 12 12)">${die(v).replace(/<\/?svg[^>]*>/g, "")}</g>`;
    return `<svg class="heap" viewBox="0 0 60 44" aria-hidden="true"><g class="die-face">${d(2, 18, -12, 5)}${d(30, 20, 10, 2)}${d(16, 2, 4, 6)}</g></svg>`;
  }

  return { die, dog, PAW, BONE, bones, cardBack, ROSETTE, ROSETTE_INK, tileIcon, diceHeap };
})();
