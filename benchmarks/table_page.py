"""How heavy a table page is, and how soon the table is drawn (loopback, headless Chromium), per game.

Starts ``python -m spots.web.server`` from each ``--src`` tree on a free 127.0.0.1 port with a
throw-away database, creates a table of each ``--game`` (a person against a bot; both games unless
named), then opens the seat's page ``--runs`` times in a fresh browser context (nothing cached) and
prints, per tree and game:

- the bytes of HTML, JS, CSS and SVG the page loads (response bodies, uncompressed; the
  server sends them as they are), per type and in total;
- the time from navigation start to the first drawn table (the board's first player mat
  (Spots) or player's place (Double Spot) in the DOM, after the WebSocket delivered the
  position), as median and min/max.

Give two trees to compare before and after side by side in one run:

    python benchmarks/table_page.py --src /work/main/src --src src --runs 15
    python benchmarks/table_page.py --game double-spot --runs 15
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]  # a person against the greedy bot
GAMES = {"spots": {"seats": SEATS}, "double-spot": {"game": "double-spot", "seats": SEATS}}
KINDS = {"text/html": "html", "javascript": "js", "text/css": "css", "image/svg": "svg"}
FIRST_DRAW = """() => new Promise((done) => {
  const seen = () => document.querySelector('#board .mat, #board .player');
  if (seen()) return done(performance.now());
  new MutationObserver((_, obs) => { if (seen()) { obs.disconnect(); done(performance.now()); } })
    .observe(document, { childList: true, subtree: true });
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(src: str, db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    proc = subprocess.Popen([sys.executable, "-m", "spots.web.server", "--port", str(port), "--db", db,
                             "--bot-delay", "5", "--log-level", "warning"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            httpx.get(url + "/api/tables", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server from {src} did not start")


def measure(browser: Any, link: str, runs: int) -> tuple[dict[str, int], list[float]]:
    sizes: dict[str, int] = {}
    times = []
    for run in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        bodies: list[tuple[str, int]] = []
        if run == 0:
            def note(response: Any, into: list[tuple[str, int]] = bodies) -> None:
                kind = next((k for t, k in KINDS.items() if t in response.headers.get("content-type", "")), None)
                if kind:
                    into.append((kind, len(response.body())))
            page.on("response", note)
        page.add_init_script("window.__firstDraw = (" + FIRST_DRAW + ")();")
        page.goto(link)
        times.append(float(page.evaluate("window.__firstDraw")))
        if run == 0:
            page.wait_for_load_state("networkidle")
            for kind, size in bodies:
                sizes[kind] = sizes.get(kind, 0) + size
        context.close()
    return sizes, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", help="a source tree holding the spots package (repeatable)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="a game to measure (repeatable; default both)")
    parser.add_argument("--runs", type=int, default=15, help="page loads per tree and game (1 to 100)")
    args = parser.parse_args()
    runs = max(1, min(100, args.runs))
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for i, src in enumerate(args.src or ["src"]):
            proc, url = serve(src, f"{tmp}/{i}.db")
            try:
                for game in args.game or list(GAMES):
                    table = httpx.post(url + "/api/tables", json=GAMES[game]).json()
                    sizes, times = measure(browser, table["seats"][0]["link"], runs)
                    parts = ", ".join(f"{k} {v:,}" for k, v in sorted(sizes.items()))
                    spread = f"min {min(times):.0f}, max {max(times):.0f}, {runs} loads"
                    print(f"{src} {game}: {sum(sizes.values()):,} bytes ({parts}); first drawn table: median "
                          f"{statistics.median(times):.0f} ms ({spread})")
            finally:
                proc.terminate()
                proc.wait(10)
        browser.close()


if __name__ == "__main__":
    main()
