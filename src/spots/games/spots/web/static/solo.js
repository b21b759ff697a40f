// A solo table (a daily deal or a challenge): the race against the bot on the same dice, turn by turn, the
// score against par at the end, the player's bests and streak (kept in this browser), and the first solo
// game's guide. Every figure comes from the server (/api/solo/...); no rules here.
"use strict";

(() => {
  const W = window.SPOTS_SOLO;
  const table = window.SpotsTable;
  if (!W || !table) return;
  const esc = (s) => Page.esc(s);
  const fill = (text, values) => Object.keys(values || {}).reduce((t, k) => t.split(`{${k}}`).join(values[k]), text);
  const tableId = document.body.dataset.table;
  const lang = document.documentElement.lang || "";
  const BEST = "spots-solo-best";  // deal -> {turns, busts, medal}
  const DAYS = "spots-solo-days";  // the dates whose daily deal was finished (for the streak)
  const GUIDED = "spots-solo-guided";
  let data = null;
  let asked = -1;  // the turn (or end) the last answer is for
  let polling = null;
  let guided = false;  // the first solo game's guide was offered (once the deal's target is known)

  const panel = document.createElement("section");
  panel.className = "race card";
  panel.id = "race";
  panel.setAttribute("aria-live", "polite");
  document.querySelector(".layout").before(panel);
  document.body.dataset.solo = W.deal;

  const store = {
    read: (key, empty) => { try { return JSON.parse(localStorage.getItem(key)) || empty; } catch (e) { return empty; } },
    write: (key, value) => { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ } },
  };

  function parLine(par) {
    if (!par) {  // being worked out: how far the bot's games have got, once one is done
      const p = data.progress;
      const text = p && p.played > 0 ? fill(W.par_progress, { played: p.played, games: p.games }) : W.par_pending;
      return `<p class="par" id="race-par" data-state="pending">${esc(text)}</p>`;
    }
    const f = (x) => x.toFixed(1);
    const text = par.exact !== null ? fill(W.par_exact, { par: par.value.toFixed(2) })
      : fill(W.par, { par: f(par.value), bot: par.bot, games: par.games, low: f(par.low), high: f(par.high), confidence: "95%" });
    return `<p class="par" id="race-par" data-state="ready">${esc(text)}</p>`;
  }

  function rows(view) {
    const you = data.you || [];
    const bot = data.bot || [];
    const over = !!data.score;
    const done = you.length;  // the player's finished turns: the bot is shown as far (all of it at the end)
    const last = over ? Math.max(done, bot.length) : done;
    const cell = (r) => (r ? esc(fill(W.dogs_busts, { dogs: P("{n} dog", "{n} dogs", r.dogs),
      busts: P("{n} bust", "{n} busts", r.busts) })) : "");  // "1 dog, 0 busts", each in its plural
    let html = "";
    for (let t = 1; t <= last; t++) {
      const mine = you[t - 1] || null;
      const theirs = bot[t - 1] || null;
      html += `<tr data-turn="${t}"><td>${t}</td><td class="you">${cell(mine)}</td><td class="bot">${cell(theirs)}</td></tr>`;
    }
    if (!over && view) html += `<tr class="now"><td>${view.turn}</td><td class="you">…</td><td class="bot"></td></tr>`;
    return `<div class="race-scroll"><table id="race-table"><thead><tr><th>${esc(W.turn)}</th><th>${esc(W.you)}</th>`
      + `<th>${esc(W.bot)}</th></tr></thead><tbody>${html}</tbody></table></div>`;
  }

  // "5 turns, 1 bust": each count in its own plural
  const counted = (r) => ({ turns: P("{n} turn", "{n} turns", r.turns), busts: P("{n} bust", "{n} busts", r.busts) });

  function result() {
    const s = data.score;
    if (!s) return "";
    let html = `<p class="result" id="race-result">${esc(fill(W.score, counted(s)))}`;
    if (data.par) {
      const diff = s.turns - data.par.value;
      const n = Math.abs(diff).toFixed(1);
      html += " " + esc(Math.abs(diff) < 0.05 ? W.level : fill(diff < 0 ? W.under : W.over, { n }));
    }
    if (data.bot) html += " " + esc(fill(W.bot_done, { turns: data.bot.length }));
    html += "</p>";
    if (data.challenge && data.par) {
      html += `<p class="medal" id="race-medal" data-medal="${esc(data.medal || "")}">`
        + `${esc(data.medal ? fill(W.medal, { medal: data.medal_word }) : W.no_medal)}</p>`;
    }
    const best = store.read(BEST, {})[W.deal];
    if (best) html += `<p class="muted" id="race-best">${esc(fill(W.best, counted(best)))}</p>`;
    return html + `<p><a class="button" href="/daily">${esc(W.back)}</a></p>`;
  }

  function remember() {
    const s = data.score;
    if (!s || !s.reached) return;
    const bests = store.read(BEST, {});
    const old = bests[W.deal];
    const better = !old || s.turns < old.turns || (s.turns === old.turns && s.busts < old.busts);
    const medalNow = old && s.turns === old.turns && s.busts === old.busts && data.medal && !old.medal;  // par came
    if (better || medalNow) {
      bests[W.deal] = { turns: s.turns, busts: s.busts, medal: data.medal || (old && old.medal) || null };
      store.write(BEST, bests);
    }
    if (W.deal.startsWith("daily-")) {
      const days = new Set(store.read(DAYS, []));
      days.add(W.deal.slice("daily-".length));
      store.write(DAYS, [...days].sort());
    }
  }

  function draw() {
    if (!data) return;
    const view = table.view();
    const goal = data.challenge ? `<p><b>${esc(fill(W.goal, data.challenge))}</b></p>` : "";
    panel.innerHTML = `<h2>${esc(W.race)}</h2><p class="muted">${esc(W.race_note)}</p>${goal}${parLine(data.par)}`
      + rows(view) + result();
    panel.dataset.over = data.score ? "1" : "0";
    const scroll = panel.querySelector(".race-scroll");
    scroll.scrollTop = scroll.scrollHeight;  // the latest turns in sight
  }

  async function ask() {
    const view = table.view();
    const key = view ? (view.over ? -2 : view.turn) : -1;
    const url = `/api/solo/${encodeURIComponent(W.deal)}?table=${encodeURIComponent(tableId)}&lang=${encodeURIComponent(lang)}`;
    clearTimeout(polling);
    try {
      const answer = await fetch(url);
      if (!answer.ok) {  // refused for now (too many requests, a server busy): ask again, as it says or soon
        const wait = Number(answer.headers.get("Retry-After")) || 3;
        polling = setTimeout(ask, Math.min(30, Math.max(1, wait)) * 1000);
        return;
      }
      data = await answer.json();
    } catch (e) {
      polling = setTimeout(ask, 3000);  // offline: the table's own connection shows it; the panel asks again
      return;
    }
    asked = key;
    if (!guided) { guided = true; guide(); }
    if (data.score) remember();  // kept whether or not par is known yet; compared when it comes
    draw();
    if (data.pending || (view && view.over && !data.score)) polling = setTimeout(ask, 1500);  // par still being worked out
  }

  table.on("state", () => {
    const view = table.view();
    const key = view ? (view.over ? -2 : view.turn) : -1;
    if (key !== asked) ask();
    else draw();
  });

  function guide() {
    if (store.read(GUIDED, false)) return;
    const box = document.createElement("section");
    box.className = "callout card";
    box.id = "solo-guide";
    box.setAttribute("aria-live", "polite");
    let step = 0;
    const show = () => {
      const text = fill(W.guide[step], { target: data.target, bot: data.bot_name });
      box.innerHTML = `<h2>${esc(W.guide_title)}</h2><p>${esc(text)}</p>`
        + `<div class="callout-actions"><button type="button" id="solo-guide-ok">${esc(W.got_it)}</button></div>`;
      box.querySelector("button").addEventListener("click", () => {
        step += 1;
        if (step < W.guide.length) show();
        else { box.remove(); store.write(GUIDED, true); }
      });
    };
    show();
    document.body.appendChild(box);
  }
})();
