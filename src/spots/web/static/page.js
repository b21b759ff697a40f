// What every game's drawing shares: escaping, the game log's lines, a move button, and the renderers by
// game. Each game's own script (its WebView's scripts, served from its folder under /games/<name>/) adds its
// renderer to Renderers: board, controls, end, hints; optional init (once, with the page's sendMove and
// toast), before/after a redraw, and disarm (while a move is on its way). The pages only pick one, so they
// name no game, and a view of a game whose script did not load says so instead of being drawn as another.
"use strict";

const Page = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);

  function logLines(lines, start) {
    return lines.map((l, i) => `<li value="${start + i + 1}">${esc(l)}</li>`).join("");
  }

  function moveButton(a) {
    return `<button type="button" class="move" data-move="${esc(a.move)}">${esc(a.label)}</button>`;
  }

  return { esc, logLines, moveButton };
})();

const Renderers = {};

// Drawn when a view names a game no loaded script draws: a plain message, never another game's table.
const MissingRenderer = {
  board: (view) => `<p class="missing-game">${Page.esc(T("This game's drawing did not load ({game}).",
    { game: view.game }))}</p>`,
  controls: () => "",
  end: () => "",
  hints: () => "",
};

function rendererFor(view) {
  return (view && Renderers[view.game]) || MissingRenderer;
}
