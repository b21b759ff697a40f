// "How did it go?": the coach's report of a finished table (GET /api/tables/<id>/analysis), with a progress bar
// while the server computes it, each player's luck, equity lost and band, each person's biggest mistakes, and the
// win-chance chart (an SVG drawn here). On the end screen a mistake links to the replay at its position; in the
// replay the chart sits over the slider, follows it, and a mistake (in the list or on the chart) moves it there.
"use strict";

const Coach = (() => {
  const esc = (s) => Page.esc(s);
  const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
  const W = 600, H = 110, PAD = 4;
  let report = null;
  let opened = null;
  let jump = null;  // the replay's show(step); null on the end screen
  let chartBox = null;
  let cursorAt = 0;

  const lang = () => (window.SPOTS_LANG === "zh-Hant" ? "zh-Hant-HK" : window.SPOTS_LANG);
  const percent = (x) => new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(x);
  const points = (x) => new Intl.NumberFormat(lang(), { signDisplay: "exceptZero", minimumFractionDigits: 1,
    maximumFractionDigits: 1 }).format(x * 100);
  const tenths = (x) => new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);

  // Open the report of `table` in `box` (once per page); `chart`: where the replay draws its chart, `show`: its jump.
  function open(table, box, chart, show) {
    if (opened === table) return;
    opened = table;
    jump = show || null;
    chartBox = chart || null;
    box.hidden = false;
    poll(table, box);
  }

  async function poll(table, box) {
    let r;
    try { r = await fetch(`/api/tables/${encodeURIComponent(table)}/analysis`); } catch (e) { r = null; }
    const data = r ? await r.json().catch(() => ({})) : {};
    if (r && r.status === 200 && data.status === "ready") { report = data.report; draw(box, table); return; }
    if (r && r.status === 202) {
      box.innerHTML = `<h2>${esc(T("How did it go?"))}</h2>
        <p id="coach-progress-words">${esc(T("Analysing the game: step {done} of {total}.", data))}</p>
        <progress id="coach-progress" aria-labelledby="coach-progress-words" max="${data.total || 1}" value="${data.done || 0}"></progress>`;
      setTimeout(() => poll(table, box), 600);
      return;
    }
    if (r && (r.status === 503 || r.status === 429)) {
      setTimeout(() => poll(table, box), 1000 * (data.retry_after || 3));
      return;
    }
    box.innerHTML = `<h2>${esc(T("How did it go?"))}</h2><p class="coach-failed">${esc(T(
      "The analysis could not be made: {why}", { why: data.message || T("Could not reach the server.") }))}</p>`;
  }

  function draw(box, table) {
    const rows = report.players.map((p) => `<tr class="${p.result > 0.5 ? "winner" : ""}">
      <td><span class="coach-swatch" style="--seat:${COLOURS[p.seat % 4]}"></span>${esc(p.name)}</td>
      <td>${percent(p.result)}</td><td>${points(p.luck)}</td><td>${tenths(p.lost * 100)}</td>
      <td>${tenths(p.mean_lost * 1000)}</td><td class="coach-band">${esc(p.band)}</td></tr>`).join("");
    const people = report.players.filter((p) => p.human);
    const away = people.filter((p) => p.stood_in > 0).map((p) => `<p class="coach-stood-in">${esc(T(
      "{name} ran out of time: the decisions a stand-in made for them ({count}) are not counted as theirs.",
      { name: p.name, count: p.stood_in }))}</p>`).join("");
    const mistakes = people.map((p) => `<h3>${esc(T("The biggest mistakes of {name}:", { name: p.name }))}</h3>` +
      (p.mistakes.length ? `<ol class="coach-mistakes">${p.mistakes.map((m) => mistake(m, table)).join("")}</ol>`
        : `<p>${esc(T("No mistakes: every decision was the best, forced, or too close to the best to call a mistake."))}</p>`)).join("");
    box.innerHTML = `<h2>${esc(T("How did it go?"))}</h2>
      <table class="summary coach-summary"><thead><tr><th>${esc(T("Player"))}</th><th>${esc(T("Result"))}</th>
      <th>${esc(T("Luck"))}</th><th>${esc(T("Equity lost"))}</th><th>${esc(T("Per decision"))}</th><th>${esc(T("Band"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p class="coach-note">${esc(T("Luck and equity lost are points of chance to win (100 = a whole game); per decision: thousandths of a game lost per decision that was not forced."))}</p>
      ${away}${chartBox ? "" : `<div class="coach-chart">${svg()}</div>`}${mistakes}`;
    if (chartBox) { chartBox.innerHTML = svg(); chartBox.hidden = false; }
    document.querySelectorAll("[data-coach-step]").forEach((el) => {
      if (jump) el.addEventListener("click", (e) => { e.preventDefault(); jump(Number(el.dataset.coachStep)); });
    });
    at(cursorAt);
    document.body.dataset.coach = "ready";
  }

  function mistake(m, table) {
    const reasons = m.reasons.map((r) => `<li>${esc(r)}</li>`).join("");
    const where = jump ? `<button type="button" class="coach-see" data-coach-step="${m.step}">${esc(T("See the position"))}</button>`
      : `<a class="button coach-see" href="/t/${esc(table)}/replay?at=${m.step}">${esc(T("See the position"))}</a>`;
    return `<li class="coach-mistake" data-step="${m.step}"><p>${esc(T("Turn {turn}: {lost} points lost.",
      { turn: m.turn, lost: tenths(m.lost * 100) }))}</p>
      <p>${esc(T("Played: {move}", { move: m.played_words }))} <code>${esc(m.played)}</code></p>
      <p>${esc(T("Better: {move}", { move: m.best_words }))} <code>${esc(m.best)}</code></p>
      <ul class="coach-reasons">${reasons}</ul>${where}</li>`;
  }

  // The chart: every seat's chance to win before each step (then the result), a dot on each mistake.
  function svg() {
    const chart = report.chart;
    const last = Math.max(1, chart.length - 1);
    const x = (i) => PAD + (W - 2 * PAD) * i / last;
    const y = (v) => PAD + (H - 2 * PAD) * (1 - v);
    const lines = report.players.map((p) => `<polyline fill="none" stroke="${COLOURS[p.seat % 4]}" stroke-width="2"
      points="${chart.map((c, i) => `${x(i).toFixed(1)},${y(c[p.seat]).toFixed(1)}`).join(" ")}"><title>${esc(p.name)}</title></polyline>`);
    const dots = report.players.flatMap((p) => p.mistakes.map((m) => `<circle class="coach-dot" data-coach-step="${m.step}"
      cx="${x(m.step).toFixed(1)}" cy="${y(chart[m.step][p.seat]).toFixed(1)}" r="5" fill="${COLOURS[p.seat % 4]}"
      stroke="#fff" stroke-width="1.5"><title>${esc(T("Mistake at step {step}", { step: m.step }))}: ${esc(p.name)}</title></circle>`));
    return `<svg class="coach-svg" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img"
      aria-label="${esc(T("Chance to win over the game"))}"><title>${esc(T("Chance to win over the game"))}</title>
      <line x1="0" x2="${W}" y1="${y(0.5)}" y2="${y(0.5)}" stroke="#999" stroke-dasharray="4 4"/>
      ${lines.join("")}<line id="coach-cursor" x1="0" x2="0" y1="0" y2="${H}" stroke="#333" stroke-width="1.5"/>
      ${dots.join("")}</svg>`;
  }

  // The replay moved to step n: the chart's cursor follows, and the mistake made there is marked in the list.
  function at(n) {
    cursorAt = n;
    if (!report) return;
    const cursor = document.getElementById("coach-cursor");
    const last = Math.max(1, report.chart.length - 1);
    if (cursor) {
      const px = PAD + (W - 2 * PAD) * Math.min(n, last) / last;
      cursor.setAttribute("x1", px);
      cursor.setAttribute("x2", px);
    }
    document.querySelectorAll(".coach-mistake").forEach((el) => el.classList.toggle("current", Number(el.dataset.step) === n));
  }

  return { open, at };
})();
