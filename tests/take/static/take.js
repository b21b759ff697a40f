// Take's renderer: the pile of stones, a button per move the server listed, who took the last stone.
"use strict";

Renderers.take = {
  board: (view) => `<p class="take-pile" id="pile" data-left="${view.left}">${"● ".repeat(view.left)}</p>
    <p class="take-left">${Page.esc(view.status)}</p>`,
  controls: (view, me, busy) => (me === null || me !== view.to_move ? [] : view.legal).map((m) =>
    `<button type="button" class="move take-move" data-move="${Page.esc(m.move)}"${busy ? " disabled" : ""}>` +
    `${Page.esc(m.label)}</button>`).join(""),
  end: (view) => view.over ? `<h2 class="headline" id="take-winner">${Page.esc(view.status)}</h2>` : "",
  hints: () => "",
};
