// The puzzle page: draws a puzzle's position on the game's own table, offers its moves, sends the one chosen,
// then shows every move's value, the reasons and the ratings. A guest's rating and streak live in this browser.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const page = document.body.dataset;
  const game = page.game;
  const signedIn = page.signedIn === "1";
  const KEY = "spots-puzzles-" + game;
  const kept = JSON.parse(localStorage.getItem(KEY) || "{}");  // {solver: [rating, rd, vol], streak}
  let current = null;
  let answering = false;

  function save() { localStorage.setItem(KEY, JSON.stringify(kept)); }

  function showSolver(rating, change) {
    $("solver-words").textContent = change === undefined ? T("Your puzzle rating: {rating}.", { rating })
      : T("Your puzzle rating: {rating} ({change}).", { rating, change: (change >= 0 ? "+" : "") + change });
    $("streak-words").textContent = T("Streak: {n}.", { n: kept.streak || 0 });
  }

  function solverRating() {
    return signedIn ? Number(page.rating) : Math.round((kept.solver || [1500])[0]);
  }

  function draw(p, daily) {
    current = p;
    answering = false;
    document.body.dataset.puzzle = p.id;
    document.body.dataset.answered = "0";
    $("puzzle-title").textContent = daily ? T("Puzzle of the day") : T("Puzzle {id}", { id: p.id });
    $("puzzle-rating-words").textContent = T("Puzzle rating: {rating}.", { rating: p.rating });
    $("puzzle-themes").textContent = T("Themes: {themes}.", { themes: p.themes.join(", ") });
    $("board").innerHTML = rendererFor(p.view).board(p.view, null);
    $("choices").replaceChildren(...p.moves.map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.dataset.move = m.move;
      b.textContent = m.label;
      b.addEventListener("click", () => choose(m.move));
      return b;
    }));
    for (const id of ["values", "reasons", "confirmed", "next-puzzle"]) $(id).hidden = true;
    $("verdict").textContent = "";
  }

  async function load(url, daily) {
    const r = await fetch(url);
    if (!r.ok) {
      $("verdict").textContent = (await r.json().catch(() => ({}))).message || T("Could not reach the server.");
      return;
    }
    draw(await r.json(), daily);
  }

  function next() {
    const q = new URLSearchParams({ rating: String(solverRating()) });
    if ($("theme").value) q.set("theme", $("theme").value);
    if (current) q.set("after", current.id);
    load(`/api/puzzles/${encodeURIComponent(game)}/next?${q}`, false);
  }

  async function choose(move) {
    if (answering || !current) return;
    answering = true;
    const body = { move };
    if (!signedIn && kept.solver) body.solver = kept.solver;
    const r = await fetch(`/api/puzzles/${encodeURIComponent(game)}/${current.id}/answer`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const a = await r.json();
    if (!r.ok) { $("verdict").textContent = a.message; answering = false; return; }
    const label = (m) => (a.values.find((v) => v.move === m) || { label: m }).label;
    for (const b of $("choices").querySelectorAll("button")) {
      b.disabled = true;
      b.classList.toggle("right", a.answers.includes(b.dataset.move));
      b.classList.toggle("picked", b.dataset.move === move);
    }
    const best = a.values[0].win;
    const mine = (a.values.find((v) => v.move === move) || { win: best }).win;
    $("verdict").textContent = a.solved ? T("Right: {move} is the best move.", { move: label(move) })
      : T("Not the best: {move} was, by {lost} of win chance.", { move: label(a.best), lost: PCT(best - mine) });
    $("verdict").className = "verdict " + (a.solved ? "solved" : "missed");
    $("values").replaceChildren(...a.values.map((v) => {
      const li = document.createElement("li");
      li.className = a.answers.includes(v.move) ? "best" : (v.move === move ? "picked" : "");
      li.textContent = `${v.label}: ${T("{win} to win", { win: PCT(v.win) })}`;
      return li;
    }));
    $("reasons").replaceChildren(...a.reasons.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    $("confirmed").textContent = T("The lead of {margin} was confirmed by play-outs to the end on the same dice "
      + "({checked} ± {error}).", { margin: PCT(a.margin), checked: PCT(a.checked), error: PCT(a.error) });
    for (const id of ["values", "confirmed", "next-puzzle"]) $(id).hidden = false;
    $("reasons").hidden = !a.reasons.length;
    kept.streak = a.solved ? (kept.streak || 0) + 1 : 0;
    if (signedIn) page.rating = String(a.solver.rating);
    else kept.solver = a.solver.kept;
    save();
    showSolver(a.solver.rating, a.counted ? a.solver.change : undefined);
    if (!a.counted) $("confirmed").textContent += " " + T("You had tried this puzzle before: your rating stays.");
    document.body.dataset.answered = a.solved ? "right" : "wrong";
    $("next-puzzle").focus();
  }

  $("next-puzzle").addEventListener("click", next);
  $("theme").addEventListener("change", next);
  showSolver(solverRating());
  if (page.puzzle) load(`/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(page.puzzle)}`, false);
  else if (page.theme) next();
  else load(`/api/puzzles/${encodeURIComponent(game)}/daily`, true);
})();
