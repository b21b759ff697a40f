// An event's page keeps its standings and tables live: it asks for the live part again every few seconds and
// swaps it in when it changed (the server renders it, translated, so this script has no words of its own).
(function () {
  const id = document.body.dataset.tournament;
  const live = document.getElementById("live");
  if (!id || !live) return;
  let last = live.innerHTML;
  async function refresh() {
    try {
      const answer = await fetch(`/tournaments/${encodeURIComponent(id)}/live`, { cache: "no-store" });
      if (answer.ok) {
        const html = await answer.text();
        if (html !== last) {
          live.innerHTML = html;
          last = html;
        }
        const card = document.getElementById("live-card");
        if (card) {
          document.body.dataset.status = card.dataset.status;
          document.body.dataset.round = card.dataset.round;
        }
      }
    } catch (e) { /* the next try */ }
    if (document.body.dataset.status === "open" || document.body.dataset.status === "playing") {
      setTimeout(refresh, 2000);
    }
  }
  setTimeout(refresh, 2000);
})();
