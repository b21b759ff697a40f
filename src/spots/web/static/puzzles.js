// The puzzle page: draws a puzzle's position on the game's own table, offers its moves, sends the one chosen,
// then shows every move's value, the reasons and the ratings. Four modes: rated puzzles near your rating, a streak
// (solve until the first miss), a timed run (as many as you can before the clock runs out; a miss costs seconds)
// and, signed in, the drill deck of your own mistakes. A guest's rating and bests live in this browser.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const page = document.body.dataset;
  const game = page.game;
  const signedIn = page.signedIn === "1";
  const api = `/api/puzzles/${encodeURIComponent(game)}`;
  const KEY = "spots-puzzles-" + game;
  const kept = JSON.parse(localStorage.getItem(KEY) || "{}");  // {solver: [rating, rd, vol], streak, best: {}}
  const best = signedIn ? JSON.parse(page.bests || "{}") : (kept.best || {});
  let mode = page.mode || "rated";
  let current = null;
  let answering = false;
  let run = null;  // a streak or timed run: {mode, puzzles, at, solved, missed, ends, timer, seen}

  function save() { localStorage.setItem(KEY, JSON.stringify(kept)); }

  function clock(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function status() {
    const words = {
      rated: () => T("Your puzzle rating: {rating}.", { rating: solverRating() }),
      streak: () => T("Streak: {n}.", { n: run ? run.solved : 0 }) + " " + T("Best: {n}.", { n: best.streak || 0 }),
      timed: () => (run && run.ends ? T("Time left: {time}.", { time: clock((run.ends - Date.now()) / 1000) }) + " " : "")
        + T("Solved: {n}.", { n: run ? run.solved : 0 }) + " " + T("Best: {n}.", { n: best.timed || 0 }),
      drill: () => page.drillWords || "",
    };
    $("solver-words").textContent = words[mode]();
    $("streak-words").textContent = mode === "rated" ? T("Streak: {n}.", { n: kept.streak || 0 }) : "";
  }

  function solverRating() {
    return signedIn ? Number(page.rating) : Math.round((kept.solver || [1500])[0]);
  }

  function button(text, action, id) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (id) b.id = id;
    b.addEventListener("click", action);
    return b;
  }

  function clear() {
    for (const id of ["values", "reasons", "confirmed", "next-puzzle", "play-out"]) $(id).hidden = true;
    $("verdict").textContent = "";
    $("verdict").className = "verdict";
    $("run-end").replaceChildren();
  }

  function draw(p, title) {
    current = p;
    answering = false;
    document.body.dataset.puzzle = p.id;
    document.body.dataset.answered = "0";
    $("puzzle-title").textContent = title || T("Puzzle {id}", { id: p.id });
    $("puzzle-rating-words").textContent = T("Puzzle rating: {rating}.", { rating: p.rating });
    $("puzzle-themes").textContent = T("Themes: {themes}.", { themes: p.themes.join(", ") });
    $("board").innerHTML = rendererFor(p.view).board(p.view, null);
    $("choices").replaceChildren(...p.moves.map((m) => {
      const b = button(m.label, () => choose(m.move));
      b.className = "choice";
      b.dataset.move = m.move;
      return b;
    }));
    clear();
  }

  async function fetched(url, options) {
    const r = await fetch(url, options);
    const body = await r.json().catch(() => ({}));
    if (!r.ok) {
      $("verdict").textContent = body.message || T("Could not reach the server.");
      return null;
    }
    return body;
  }

  async function load(url, title) {
    const p = await fetched(url);
    if (p) draw(p, title);
  }

  function next() {
    if (mode === "drill") return nextDrill();
    if (run) return nextInRun();
    const q = new URLSearchParams({ rating: String(solverRating()) });
    if ($("theme").value) q.set("theme", $("theme").value);
    if (current) q.set("after", current.id);
    load(`${api}/next?${q}`);
  }

  // ------------------------------------------------------------------ answering

  async function choose(move) {
    if (answering || !current || (run && run.over)) return;
    answering = true;
    const body = { move };
    if (mode === "streak" || mode === "timed") body.mode = mode;
    if (!signedIn && kept.solver) body.solver = kept.solver;
    const url = mode === "drill" ? `${api}/drill/${current.id}/answer` : `${api}/${current.id}/answer`;
    const a = await fetched(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    if (!a) { answering = false; return; }
    for (const b of $("choices").querySelectorAll("button")) {
      b.disabled = true;
      b.classList.toggle("right", a.answers.includes(b.dataset.move));
      b.classList.toggle("picked", b.dataset.move === move);
    }
    document.body.dataset.answered = a.solved ? "right" : "wrong";
    if (mode === "timed") return timedAnswer(a);
    explain(a, move);
    if (mode === "rated") rated(a);
    else if (mode === "streak") streakAnswer(a);
    else drillAnswer(a);
  }

  function explain(a, move) {
    const label = (m) => (a.values.find((v) => v.move === m) || { label: m }).label;
    const top = a.values[0].win;
    const mine = (a.values.find((v) => v.move === move) || { win: top }).win;
    $("verdict").textContent = a.solved ? T("Right: {move} is the best move.", { move: label(move) })
      : T("Not the best: {move} was, by {lost} of win chance.", { move: label(a.best), lost: PCT(top - mine) });
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
    for (const id of ["values", "confirmed", "play-out"]) $(id).hidden = false;
    $("reasons").hidden = !a.reasons.length;
  }

  function rated(a) {
    kept.streak = a.solved ? (kept.streak || 0) + 1 : 0;
    if (signedIn) page.rating = String(a.solver.rating);
    else kept.solver = a.solver.kept;
    save();
    status();
    if (a.counted) {
      const change = a.solver.change;
      $("solver-words").textContent = T("Your puzzle rating: {rating} ({change}).",
        { rating: a.solver.rating, change: (change >= 0 ? "+" : "") + change });
    } else {
      $("confirmed").textContent += " " + T("You had tried this puzzle before: your rating stays.");
    }
    showNext(T("Next puzzle"));
  }

  function showNext(words) {
    $("next-puzzle").textContent = words;
    $("next-puzzle").hidden = false;
    $("next-puzzle").focus();
  }

  // ------------------------------------------------------------------ streaks and timed runs

  async function startRun(which) {
    stopRun();
    const r = await fetched(`${api}/run?mode=${which}`);
    if (!r) return;
    run = { mode: which, puzzles: r.puzzles, at: -1, solved: 0, missed: 0, seen: [], over: false,
      seconds: r.seconds, missCosts: r.miss_costs };
    document.body.dataset.run = which;
    document.body.dataset.runOver = "0";
    document.body.dataset.runSolved = "0";
    if (which === "timed") {
      run.ends = Date.now() + r.seconds * 1000;
      run.timer = setInterval(tick, 250);
    }
    $("start-run").hidden = true;
    status();
    nextInRun();
  }

  function stopRun() {
    if (run && run.timer) clearInterval(run.timer);
    run = null;
  }

  function nextInRun() {
    run.at += 1;
    if (run.at >= run.puzzles.length) return endRun();
    const id = run.puzzles[run.at];
    run.seen.push(id);
    const title = run.mode === "streak" ? T("Streak: puzzle {n}", { n: run.at + 1 })
      : T("Timed run: puzzle {n}", { n: run.at + 1 });
    load(`${api}/${encodeURIComponent(id)}`, title);
  }

  function streakAnswer(a) {
    if (a.solved) {
      run.solved += 1;
      document.body.dataset.runSolved = String(run.solved);
      status();
      showNext(T("Next puzzle"));
    } else {
      endRun();
    }
  }

  function timedAnswer(a) {
    if (a.solved) {
      run.solved += 1;
      document.body.dataset.runSolved = String(run.solved);
    } else {
      run.missed += 1;
      run.ends -= run.missCosts * 1000;
    }
    $("verdict").textContent = a.solved ? T("Right!") : T("Missed: {seconds} seconds off the clock.",
      { seconds: run.missCosts });
    $("verdict").className = "verdict " + (a.solved ? "solved" : "missed");
    status();
    if (Date.now() < run.ends) nextInRun();
    else endRun();
  }

  function tick() {
    if (!run || run.over) return;
    if (Date.now() >= run.ends) endRun();
    else status();
  }

  async function endRun() {
    if (!run || run.over) return;
    run.over = true;
    if (run.timer) clearInterval(run.timer);
    for (const b of $("choices").querySelectorAll("button")) b.disabled = true;
    const score = run.solved;
    const which = run.mode;
    let said = which === "streak" ? T("The streak ends at {n}.", { n: score })
      : T("Time! {solved} solved, {missed} missed.", { solved: score, missed: run.missed });
    if (score > (best[which] || 0)) said += " " + T("A new best!");
    if (signedIn) {
      const kept2 = await fetched(`${api}/best`, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ mode: which, score }) });
      if (kept2) best[which] = kept2.best;
    } else {
      best[which] = Math.max(best[which] || 0, score);
      kept.best = best;
      save();
    }
    status();
    const end = $("run-end");
    const p = document.createElement("p");
    p.className = "run-said";
    p.textContent = said;
    const list = document.createElement("ol");  // the run's puzzles, to look at again at leisure
    for (const id of run.seen) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/puzzles?game=${encodeURIComponent(game)}&id=${encodeURIComponent(id)}`;
      a.textContent = T("Puzzle {id}", { id });
      li.append(a);
      list.append(li);
    }
    end.replaceChildren(p, list, button(which === "streak" ? T("Start a new streak") : T("Start a new run"),
      () => startRun(which), "again"));
    document.body.dataset.runOver = "1";
  }

  // ------------------------------------------------------------------ the drill deck

  async function nextDrill() {
    const d = await fetched(`${api}/drill`);
    if (!d) return;
    page.drillWords = d.due ? P("{n} position to review", "{n} positions to review", d.due)
      : (d.deck ? T("Nothing to review now: the next position comes back {when}.", { when: when(d.next_due) })
        : T("Your deck is empty: the mistakes the coach finds in your finished games come here."));
    status();
    document.body.dataset.due = String(d.due);
    if (d.puzzle) {
      draw(d.puzzle, T("Your own mistake"));
    } else {
      current = null;
      $("board").replaceChildren();
      $("choices").replaceChildren();
      $("puzzle-title").textContent = T("My mistakes");
      for (const id of ["puzzle-rating-words", "puzzle-themes"]) $(id).textContent = "";
      clear();
    }
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" }) : "";
  }

  function drillAnswer(a) {
    $("confirmed").textContent += " " + T("It comes back {when}.", { when: when(a.again) });
    showNext(a.due ? T("Next position") : T("Done for now"));
  }

  // ------------------------------------------------------------------ modes and buttons

  function setMode(which) {
    stopRun();
    mode = which;
    document.body.dataset.mode = which;
    for (const key of ["run", "runOver", "runSolved"]) delete document.body.dataset[key];
    for (const b of $("modes").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.mode === which));
    $("theme-row").hidden = which !== "rated";
    $("start-run").hidden = !(which === "streak" || which === "timed");
    $("start-run").textContent = which === "streak" ? T("Start a streak")
      : T("Start a timed run ({minutes} minutes)", { minutes: 3 });
    current = null;
    clear();
    status();
    if (which === "rated") next();
    if (which === "drill") nextDrill();
    if (which === "streak" || which === "timed") {
      $("board").replaceChildren();
      $("choices").replaceChildren();
      $("puzzle-title").textContent = which === "streak" ? T("Streak") : T("Timed run");
      for (const id of ["puzzle-rating-words", "puzzle-themes"]) $(id).textContent = "";
      $("puzzle-task").textContent = which === "streak"
        ? T("Solve puzzles, each harder than the last, until your first miss. Unrated.")
        : T("Solve as many as you can in 3 minutes; a miss costs {seconds} seconds. Unrated.", { seconds: 10 });
    } else {
      $("puzzle-task").textContent = T("You are to move: find the best move.");
    }
  }

  async function playOut() {
    if (!current) return;
    const r = await fetched(`${api}/${current.id}/play`, { method: "POST" });
    if (r) location.href = r.link;
  }

  for (const b of $("modes").querySelectorAll("button")) b.addEventListener("click", () => setMode(b.dataset.mode));
  $("next-puzzle").addEventListener("click", next);
  $("theme").addEventListener("change", next);
  $("start-run").addEventListener("click", () => startRun(mode));
  $("play-out").addEventListener("click", playOut);
  if (mode !== "rated") {
    setMode(mode);
  } else {
    document.body.dataset.mode = "rated";
    status();
    if (page.puzzle) load(`${api}/${encodeURIComponent(page.puzzle)}`);
    else if (page.theme) next();
    else load(`${api}/daily`, T("Puzzle of the day"));
  }
})();
