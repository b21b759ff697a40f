// Report and block (web/fairplay/reports.py) on a player's profile and on My games. The server says what went
// wrong in words; they are shown as text.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  async function call(method, url, body) {
    const r = await fetch(url, { method, headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || String(r.status));
    return data;
  }

  const block = $("block-player");  // a profile: Block or Unblock, then the page again (it says which)
  if (block) {
    block.addEventListener("click", async () => {
      const name = block.dataset.player;
      block.disabled = true;
      try {
        if (block.classList.contains("unblock")) await call("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
        else await call("POST", "/api/blocks", { player: name });
        location.reload();
      } catch (err) {
        block.disabled = false;
        $("report-player-said").textContent = err.message;
      }
    });
  }

  const form = $("report-player-form");
  if (form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const said = $("report-player-said");
      try {
        await call("POST", "/api/reports", { player: form.dataset.player, why: $("report-player-why").value });
        said.textContent = said.dataset.done;
        $("report-player-why").value = "";
      } catch (err) {
        said.textContent = err.message;
      }
    });
  }

  for (const button of document.querySelectorAll("#blocked button.unblock")) {  // My games
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await call("DELETE", `/api/blocks/${encodeURIComponent(button.dataset.player)}`);
        button.closest("li").remove();
      } catch (err) {
        button.disabled = false;
      }
    });
  }
})();
