// Double Spot's drawings, made in code (original art; each function returns SVG text): the colour die as a
// cube with three of its faces in view, the back of a pattern card, the deck, the card holders' stands and
// the piles of two-sided discs. The frame, the discs in it and the cards' spots are drawn by
// double_spot.css around the page's own elements, so they stay buttons and text for every reader.
"use strict";

const DsArt = (() => {
  // The die's six faces in an order where a face and the one three places on are opposite sides of the
  // cube (blue/yellow, green/pink, the two split faces): the two faces drawn beside the rolled one are
  // always neighbours of it on a real cube.
  const FACES = ["blue", "green", "blue-green", "yellow", "pink", "pink-yellow"];
  const coloursOf = (face) => face.split("-");

  /** One face's circle in a unit square (solid, or split in two halves), with its colour-blind shapes. */
  function faceMark(colours, withSymbols) {
    const [a, b] = colours;
    if (!b) {
      return `<circle class="c-${a}" cx=".5" cy=".5" r=".33"/>`
        + (withSymbols ? `<use class="sym on-${a}" href="#ds-sym-${a}" x=".22" y=".22" width=".56" height=".56"/>` : "");
    }
    return `<path class="c-${a}" d="M.5 .17a.33 .33 0 0 0 0 .66z"/><path class="c-${b}" d="M.5 .17a.33 .33 0 0 1 0 .66z"/>`
      + (withSymbols ? `<use class="sym on-${a}" href="#ds-sym-${a}" x=".2" y=".36" width=".28" height=".28"/>`
        + `<use class="sym on-${b}" href="#ds-sym-${b}" x=".52" y=".36" width=".28" height=".28"/>` : "");
  }

  /** The die, seen from the front and a little above: the rolled face toward the player, two of its
   * neighbours on the top and the right side (drawn in perspective, shaded). */
  function die(face) {
    const at = Math.max(0, FACES.indexOf(face));
    const top = coloursOf(FACES[(at + 1) % 6]), right = coloursOf(FACES[(at + 2) % 6]);
    const front = coloursOf(face);
    return `<path class="die-edge" d="M4 16 16 4h36v36L40 52H4z"/>`
      + `<path class="die-side top" d="M4 16 16 4h36L40 16z"/><g transform="matrix(36 0 12 -12 4 16)">${faceMark(top, false)}</g>`
      + `<path class="die-side right" d="M40 16 52 4v36L40 52z"/><g transform="matrix(12 -12 0 36 40 16)">${faceMark(right, false)}</g>`
      + `<rect class="die-body" x="4" y="16" width="36" height="36" rx="5"/>`
      + `<g transform="matrix(36 0 0 36 4 16)">${faceMark(front, true)}</g>`;
  }

  /** The back of a pattern card: two overlapping rings (a double spot) on a dotted ground. */
  function cardBack() {
    let dots = "";
    for (let y = 0; y < 7; y++) for (let x = 0; x < 5; x++) dots += `<circle cx="${6 + x * 10 + (y % 2) * 5}" cy="${6 + y * 11}" r="1.6"/>`;
    return `<svg class="card-back-art" viewBox="0 0 56 76" aria-hidden="true" preserveAspectRatio="none">`
      + `<rect x="1" y="1" width="54" height="74" rx="6" class="back-ground"/><g class="back-dots">${dots}</g>`
      + `<circle cx="23" cy="38" r="11" class="back-ring a"/><circle cx="33" cy="38" r="11" class="back-ring b"/></svg>`;
  }

  /** The deck: the backs of up to four cards, stacked. */
  function deck(left) {
    let stack = "";
    for (let i = Math.min(4, left) - 1; i >= 0; i--) {
      stack += `<g transform="translate(${i * 2.2} ${i * -2.2})">${cardBack().replace('preserveAspectRatio="none"', 'width="56" height="76"')}</g>`;
    }
    return `<svg class="deck-art" viewBox="0 -8 66 86" aria-hidden="true">${stack}</svg>`;
  }

  /** A holder's stand: a block with a slot the card stands in, at one end of the frame's base. */
  function stand() {
    return `<svg class="stand-art" viewBox="0 0 80 22" aria-hidden="true" preserveAspectRatio="none">`
      + `<path class="stand-body" d="M6 6h68l5 15H1z"/><rect class="stand-slot" x="10" y="3" width="60" height="5" rx="2"/></svg>`;
  }

  /** A pile of two-sided discs of one kind ("blue-green"), drawn as a stack showing both faces. */
  function pile(kind, n) {
    const [a, b] = coloursOf(kind);
    const shown = Math.min(6, Math.ceil(n / 4));
    let coins = "";
    for (let i = 0; i < shown; i++) {
      const y = 30 - i * 4.2, x = 20 + (i % 2 ? 1.2 : -1.2);
      coins += `<ellipse class="c-${b}" cx="${x}" cy="${y + 1.8}" rx="15" ry="5.5"/><ellipse class="c-${a}" cx="${x}" cy="${y}" rx="15" ry="5.5"/>`;
    }
    return `<svg class="pile-art" viewBox="0 0 40 40" aria-hidden="true">${coins || '<ellipse class="pile-empty" cx="20" cy="31" rx="15" ry="5.5"/>'}</svg>`;
  }

  return { FACES, die, cardBack, deck, stand, pile };
})();
