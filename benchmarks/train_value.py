"""Train the learned value (``spots.games.spots.learned_value``) from simulator games: data on Ray, fit with PyTorch.

    python benchmarks/train_value.py --games 240000 --seed 28 --workers 2 \
        --model src/spots/games/spots/data/learned_value.npz --curve docs/learned-value-curve.csv

The procedure (docs/learned-value.md):

1. **Positions.** Games of 2, 3 and 4 players (a third each) in the compiled simulator
   (``spots.fast.positions``), each on its own random trick set (``tricks_seed`` = the game's number
   modulo 5,000), every seat greedy with its own stopping risk drawn from [0.05, 0.6] and a chance of
   0 to 5% of a random move. Up to 6 turn starts a game are kept (uniformly over its turns), each
   with the game's result. Chunks of ``--chunk`` games are Ray tasks through the studies' runner
   (``spots.study.execute.start_ray``: ``--workers`` CPUs here, or ``--address`` of a cluster); a
   chunk's games depend only on ``--seed`` and their numbers, so any number of workers gives the same data.
2. **Split.** Every 20th chunk is held out for validation (whole games, never seen in training).
3. **Fit.** The network (two ReLU layers of ``--hidden``) scores each seat's row; a softmax over the
   seats (padded to 4, absent seats masked) is fitted to the game's returns by cross-entropy, with
   Adam, ``--epochs`` passes in shuffled batches (``torch.manual_seed(--seed)``). The validation
   log-loss and the accuracy (the seat given the best chance won) after each epoch are the curve; the
   linear value's log-loss (``value.win_chances``, normalised) on the same positions is printed beside it.
4. **Ship.** The weights, with the features' mean and scale, go to ``--model`` as float32 ``.npz``.

**Stronger play.** ``--policy learned-fast`` plays every seat with that bot instead (on the reference engine,
about 0.3 s a 2-player game), ``--players 2`` only 2-player games; keep them with ``--data`` (no ``--model``:
nothing is fitted), then fit to both with ``--mix KEPT.npz*N`` (its training positions N times, beside the
``--data`` run's). Each source's validation log-loss is printed for the new model, the linear value and every
``--compare`` model (the shipped one, say), on the same held-out positions.

Needs the fast, study and train extras (Numba, Ray, PyTorch).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from spots.games.spots import Rules
from spots.games.spots.learned_value import FEATURES_VERSION, ROW, TurnStart, position_rows
from spots.games.spots.value import FITTED, standing, win_chances

SEATS = 4
TRICK_SETS = 5000
VALIDATION_EVERY = 20
KEYS = ("rows", "mask", "returns", "linear")  # the arrays of a batch of positions


def rules_for(players: int, tricks_seed: int) -> Rules:
    return Rules(players=players, tricks="random", tricks_seed=tricks_seed)


def linear_chances(position: Any) -> list[float]:
    """The fitted linear value's chances for every seat, scaled to sum to 1 (the baseline)."""
    view = SimpleNamespace(players=position.players, rules=position.rules)
    standings = [standing(view, s, FITTED) for s in range(position.rules.players)]  # type: ignore[arg-type]
    chances = win_chances(view, standings, FITTED)  # type: ignore[arg-type]
    total = sum(chances)
    return [c / total for c in chances]


def seat_bots(policy: str, seed: int, risk: np.ndarray) -> list[Any]:
    """The bots of one reference-engine game: greedy with each seat's stopping risk, or ``learned-fast`` in every
    seat (stronger play: its positions and results are closer to what the search meets; the risks are unused)."""
    if policy == "greedy":
        from spots.games.spots.greedy import GreedyBot

        return [GreedyBot(seed=seed + s, risk=float(r)) for s, r in enumerate(risk)]
    from spots.games.spots.bots import BOTS

    return [BOTS[policy](seed=seed + s) for s in range(len(risk))]


def reference_positions(rules_per_game: list[Rules], seeds: list[int], risks: np.ndarray, explore: np.ndarray,
                        keep: int = 6, policy: str = "greedy") -> tuple[list[Any], list[list[float]], int]:
    """``record_positions`` on the reference engine (slow; for tests, machines without Numba and policies the
    simulator does not have): the same kind of games and the same sampling of turn starts, with the engine's own
    dice, so not the same games."""
    import random

    from spots.games.spots.state import State

    positions: list[Any] = []
    results: list[list[float]] = []
    for rules, seed, risk, chance in zip(rules_per_game, seeds, risks, explore, strict=True):
        rng = random.Random(seed)
        seats = seat_bots(policy, seed, risk)
        state = State(rules)
        kept: list[Any] = []
        seen, last = 0, -1
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            if state.turn != last and state.first_player is not None:
                last = state.turn
                slot = seen if seen < keep else int(rng.random() * (seen + 1))
                snap = TurnStart.of(state)
                snap.players = [p.copy() for p in state.players]
                if slot < len(kept):
                    kept[slot] = snap
                elif slot < keep:
                    kept.append(snap)
                seen += 1
            moves = state.legal_actions()
            seat = state.seat
            move = rng.choice(moves) if rng.random() < chance[seat] else seats[seat].choose(state)
            state.apply_action(move)
        positions += kept
        results += [[float(r) for r in state.returns()]] * len(kept)
    return positions, results, 0


def chunk(seed: int, start: int, stop: int, engine: str = "fast", policy: str = "greedy",
          counts: tuple[int, ...] = (2, 3, 4), rollouts: int = 0, explore_to: float = 0.05) -> dict[str, np.ndarray]:
    """Games ``start``..``stop`` (each game's player count, trick set, risks and dice from ``seed`` and its number;
    the counts take turns) as padded feature arrays: rows (n, 4, ROW), mask (n, 4), returns (n, 4), linear (n, 4).
    With ``rollouts`` (the simulator only) a position's returns are the mean of that many greedy play-outs of it."""
    record: Any = partial(reference_positions, policy=policy)
    if engine == "fast":
        from spots.fast.positions import record_positions

        record = partial(record_positions, rollouts=rollouts)

    out: dict[str, list[np.ndarray]] = {"rows": [], "mask": [], "returns": [], "linear": []}
    cut = 0
    for index, players in enumerate(counts):
        games = [g for g in range(start, stop) if g % len(counts) == index]
        if not games:
            continue
        rng = np.random.default_rng([seed, players, start])
        risks = rng.uniform(0.05, 0.6, (len(games), players))
        explore = rng.uniform(0.0, explore_to, (len(games), players))
        rules = [rules_for(players, g % TRICK_SETS) for g in games]
        seeds = [seed * 1_000_003 + g for g in games]
        positions, results, stopped = record(rules, seeds, risks, explore)
        cut += stopped
        n = len(positions)
        rows = np.zeros((n, SEATS, ROW), dtype=np.float32)
        mask = np.zeros((n, SEATS), dtype=bool)
        returns = np.zeros((n, SEATS), dtype=np.float32)
        linear = np.zeros((n, SEATS), dtype=np.float32)
        for i, (p, result) in enumerate(zip(positions, results, strict=True)):
            rows[i, :players] = position_rows(p)
            mask[i, :players] = True
            returns[i, :players] = result
            linear[i, :players] = linear_chances(p)
        for key, value in (("rows", rows), ("mask", mask), ("returns", returns), ("linear", linear)):
            out[key].append(value)
    arrays = {k: np.concatenate(v) for k, v in out.items()}
    arrays["cut"] = np.array([cut])
    return arrays


def generate(games: int, chunk_size: int, seed: int, workers: int, address: str | None, engine: str = "fast",
             policy: str = "greedy", counts: tuple[int, ...] = (2, 3, 4), rollouts: int = 0,
             explore_to: float = 0.05) -> list[dict[str, np.ndarray]]:
    """Every chunk's arrays, in chunk order; on Ray unless ``workers`` is 0 (in this process, for tests)."""
    bounds = [(s, min(s + chunk_size, games)) for s in range(0, games, chunk_size)]
    if workers == 0 and not address:
        return [chunk(seed, a, b, engine, policy, counts, rollouts, explore_to) for a, b in bounds]
    from spots.study.execute import start_ray

    ray, started = start_ray(address, workers)
    try:
        remote = ray.remote(num_cpus=1)(chunk)
        limit = workers or int(ray.cluster_resources().get("CPU", 1))
        results: dict[int, dict[str, np.ndarray]] = {}
        pending: dict[Any, int] = {}
        queue = list(enumerate(bounds))
        done = 0
        while queue or pending:
            while queue and len(pending) < limit:
                i, (a, b) = queue.pop(0)
                pending[remote.remote(seed, a, b, engine, policy, counts, rollouts, explore_to)] = i
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i = pending.pop(ref)
                results[i] = ray.get(ref)
                done += bounds[i][1] - bounds[i][0]
                print(f"\r{done}/{games} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return [results[i] for i in range(len(bounds))]
    finally:
        if started:
            ray.shutdown()


def stack(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([c[k] for c in chunks]) for k in KEYS}


def log_loss(chances: np.ndarray, returns: np.ndarray) -> float:
    """Mean cross-entropy of the seats' chances against the results (absent seats hold 0 in both)."""
    return float(-(returns * np.log(np.clip(chances, 1e-7, 1.0))).sum(axis=1).mean())


def accuracy(chances: np.ndarray, returns: np.ndarray) -> float:
    """How often the seat given the best chance is the one that won (a shared result counts its share)."""
    best = chances.argmax(axis=1)
    return float(returns[np.arange(len(best)), best].mean())


def fit(train: dict[str, np.ndarray], valid: dict[str, np.ndarray], hidden: int, epochs: int, batch: int,
        lr: float, seed: int) -> tuple[dict[str, Any], list[dict[str, float]]]:
    """Fit the network; return its arrays (``LearnedValue``'s keys) and the curve (one row per epoch)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    present = train["mask"]
    flat = train["rows"][present]
    mean = flat.mean(axis=0)
    scale = np.maximum(flat.std(axis=0), 1e-3)
    net = torch.nn.Sequential(torch.nn.Linear(ROW, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                              torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(epochs, 1))

    def tensors(d: dict[str, np.ndarray]) -> tuple[Any, Any, Any]:
        x = torch.from_numpy(((d["rows"] - mean) / scale).astype(np.float32))
        return x, torch.from_numpy(d["mask"]), torch.from_numpy(d["returns"])

    def chances(x: Any, m: Any) -> Any:
        logits = net(x).squeeze(-1).masked_fill(~m, float("-inf"))
        return torch.log_softmax(logits, dim=-1)

    x, m, y = tensors(train)
    vx, vm, _ = tensors(valid)
    curve: list[dict[str, float]] = []
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        order = torch.randperm(len(x), generator=generator)
        total = 0.0
        net.train()
        for i in range(0, len(x), batch):
            idx = order[i:i + batch]
            logp = chances(x[idx], m[idx]).masked_fill(~m[idx], 0.0)
            loss = -(y[idx] * logp).sum(dim=1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        sched.step()
        net.eval()
        with torch.no_grad():
            valid_chances = chances(vx, vm).exp().numpy()
        curve.append({"epoch": epoch, "train_loss": total / len(x),
                      "valid_loss": log_loss(valid_chances, valid["returns"]),
                      "valid_accuracy": accuracy(valid_chances, valid["returns"]),
                      "seconds": time.perf_counter() - start})
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in curve[-1].items()))
    layers: list[Any] = [net[0], net[2], net[4]]
    arrays: dict[str, Any] = {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32),
              "features_version": np.array(FEATURES_VERSION)}
    for k, layer in enumerate(layers, start=1):
        arrays[f"w{k}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{k}"] = layer.bias.detach().numpy().astype(np.float32)
    arrays["w3"] = arrays["w3"].reshape(-1)
    return arrays, curve


def write_curve(curve: list[dict[str, float]], path: Path, baseline: dict[str, float]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[*curve[0], "linear_valid_loss", "linear_valid_accuracy"])
        writer.writeheader()
        for row in curve:
            writer.writerow({**{k: f"{v:.5f}" if isinstance(v, float) else v for k, v in row.items()},
                             "linear_valid_loss": f"{baseline['loss']:.5f}",
                             "linear_valid_accuracy": f"{baseline['accuracy']:.5f}"})


def write_svg(curve: list[dict[str, float]], path: Path, baseline: dict[str, float]) -> None:
    """The curve as a small SVG: training and validation log-loss per epoch, the linear value's as a line."""
    width, height, pad = 480, 260, 40
    losses = [r["train_loss"] for r in curve] + [r["valid_loss"] for r in curve] + [baseline["loss"]]
    low, high = min(losses) - 0.005, max(losses) + 0.005
    epochs = max(len(curve), 2)

    def xy(epoch: float, loss: float) -> str:
        x = pad + (epoch - 1) / (epochs - 1) * (width - 2 * pad)
        y = height - pad - (loss - low) / (high - low) * (height - 2 * pad)
        return f"{x:.1f},{y:.1f}"

    def line(key: str, colour: str) -> str:
        points = " ".join(xy(r["epoch"], r[key]) for r in curve)
        return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>'

    base = f'{xy(1, baseline["loss"])} {xy(epochs, baseline["loss"])}'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<polyline fill="none" stroke="#999" stroke-dasharray="4 3" points="{base}"/>',
        line("train_loss", "#1f77b4"), line("valid_loss", "#d62728"),
        f'<text x="{pad}" y="16">log-loss per epoch: training (blue), validation (red), '
        'linear value on validation (grey)</text>',
        f'<text x="4" y="{pad}">{high:.3f}</text><text x="4" y="{height - pad}">{low:.3f}</text>',
        f'<text x="{pad}" y="{height - 12}">epoch 1</text>'
        f'<text x="{width - pad - 40}" y="{height - 12}">epoch {len(curve)}</text>',
        "</svg>",
    ]
    path.write_text("\n".join(parts) + "\n")


def read_data(path: Path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], int]:
    """The training and validation positions a run kept with ``--data``."""
    with np.load(path) as saved:
        train = {k: saved[f"train_{k}"] for k in KEYS}
        valid = {k: saved[f"valid_{k}"] for k in KEYS}
        return train, valid, int(saved["cut"][0])


def play_data(args: argparse.Namespace) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], int]:
    """Play ``--games`` games and split them by chunk (every ``VALIDATION_EVERY``-th held out)."""
    chunks = generate(args.games, args.chunk, args.seed, args.workers, args.address, args.engine, args.policy,
                      args.players, args.rollouts, args.explore)
    held = {i for i in range(len(chunks)) if i % VALIDATION_EVERY == VALIDATION_EVERY - 1} or {len(chunks) - 1}
    kept = [c for i, c in enumerate(chunks) if i not in held]  # a small run: its last chunk validates only
    return stack(kept), stack([chunks[i] for i in sorted(held)]), int(sum(int(c["cut"][0]) for c in chunks))


def mixed(path_and_times: str) -> tuple[Path, int]:
    """``PATH`` or ``PATH*N`` (its training positions counted N times) for ``--mix``."""
    path, _, times = path_and_times.partition("*")
    if not Path(path).exists() or (times and not (times.isdigit() and int(times) >= 1)):
        raise argparse.ArgumentTypeError(f"--mix takes a kept --data file, optionally *N with N >= 1: "
                                         f"not {path_and_times!r}")
    return Path(path), int(times or 1)


def model_chances(model: Any, rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A ``LearnedValue``'s chances for padded positions (absent seats get none)."""
    scores = np.where(mask, model.scores(rows.astype(np.float64)), -np.inf)
    odds = np.exp(scores - scores.max(axis=1, keepdims=True))
    return odds / odds.sum(axis=1, keepdims=True)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=240_000)
    parser.add_argument("--chunk", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--workers", type=int, default=2, help="Ray CPUs here; 0: no Ray, in this process")
    parser.add_argument("--address", help="HOST:PORT of a running Ray cluster (ray start --head)")
    parser.add_argument("--engine", choices=("fast", "reference"),
                        help="play the games in the compiled simulator (fast, the default for greedy play) or the "
                        "reference engine (slow; the only one for --policy learned-fast)")
    parser.add_argument("--policy", choices=("greedy", "learned-fast"), default="greedy",
                        help="who plays every seat: greedy with varied risks, or the learned-fast bot")
    parser.add_argument("--players", default="2,3,4", help="player counts, taking turns game by game (2,3,4)")
    parser.add_argument("--rollouts", type=int, default=0, help="fit each position to the mean of this many greedy "
                        "play-outs of it (the simulator; default 0: to its game's result)")
    parser.add_argument("--explore", type=float, default=0.05, help="each seat's chance of a random move is drawn "
                        "from 0 to this (wider positions)")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--model", type=Path, help="where to write the .npz (without it: keep the data, fit nothing)")
    parser.add_argument("--curve", type=Path, help="where to write the training curve (CSV)")
    parser.add_argument("--data", type=Path, help="keep the positions in this .npz (and read them from it if it "
                        "exists, to fit again without playing the games again)")
    parser.add_argument("--mix", type=mixed, action="append", default=[], metavar="DATA[*N]",
                        help="also fit to another kept --data file (its training positions N times)")
    parser.add_argument("--compare", type=Path, action="append", default=[], metavar="MODEL",
                        help="report this saved model's validation log-loss beside the new one's")
    args = parser.parse_args(argv)
    if args.chunk < 1 or args.games < 1:
        parser.error("--games and --chunk must be at least 1")
    if args.games <= args.chunk and not (args.data and args.data.exists()):
        parser.error(f"--games {args.games} in chunks of {args.chunk} is one chunk: the games are split by chunk "
                     "into training and validation, so give at least two (more games or a smaller --chunk)")
    counts = args.players.split(",")
    if not all(c in ("2", "3", "4") for c in counts) or len(set(counts)) != len(counts):
        parser.error(f"--players takes distinct counts from 2, 3 and 4, like 2,3,4: not {args.players!r}")
    args.players = tuple(int(c) for c in counts)
    if args.rollouts and (args.engine == "reference" or args.policy != "greedy"):
        parser.error("--rollouts plays the positions on in the compiled simulator: greedy play, --engine fast")
    if args.policy != "greedy" and args.engine == "fast":
        parser.error(f"the compiled simulator plays greedy only: --policy {args.policy} needs --engine reference")
    args.engine = args.engine or ("fast" if args.policy == "greedy" else "reference")
    if not args.model and not args.data:
        parser.error("give --model (fit), --data (keep the positions), or both")
    return args


def report(name: str, valid: dict[str, np.ndarray], arrays: dict[str, Any], compare: list[Path]) -> None:
    """Validation log-loss on one source's held-out positions: the new model, the linear value, the others."""
    from spots.games.spots.learned_value import LearnedValue

    models = [("new", LearnedValue(arrays)), *[(str(m), LearnedValue.load(m)) for m in compare]]
    figures = [(who, model_chances(model, valid["rows"], valid["mask"])) for who, model in models]
    figures.insert(1, ("linear", valid["linear"]))
    seats = valid["mask"].sum(axis=1)
    for players in (0, *sorted(set(seats.tolist()))):  # 0: every position
        some = seats == players if players else np.ones(len(seats), dtype=bool)
        shown = ", ".join(f"{who} {log_loss(c[some], valid['returns'][some]):.4f}" for who, c in figures)
        what = f"{players} players, " if players else ""
        print(f"validation log-loss on {name} ({what}{int(some.sum())} positions): {shown}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    start = time.perf_counter()
    if args.data and args.data.exists():
        train, valid, cut = read_data(args.data)
        played = f"kept positions of {args.data}"
    else:
        played = f"{args.games} games"
        train, valid, cut = play_data(args)
        if args.data:
            np.savez(args.data, cut=np.array([cut]), **{f"train_{k}": v for k, v in train.items()},
                     **{f"valid_{k}": v for k, v in valid.items()})
    data_seconds = time.perf_counter() - start
    print(f"{played} ({cut} cut off), {len(train['rows'])} training and {len(valid['rows'])} validation "
          f"positions in {data_seconds:.0f} s")
    result: dict[str, Any] = {"train": len(train["rows"]), "valid": len(valid["rows"]), "cut": cut,
                              "data_seconds": data_seconds}
    if not args.model:
        return result
    sources = [(str(args.data or "the games"), valid)]
    for path, times in args.mix:
        more_train, more_valid, _ = read_data(path)
        train = {k: np.concatenate([train[k], *[more_train[k]] * times]) for k in KEYS}
        sources.append((str(path), more_valid))
    every = {k: np.concatenate([v[k] for _, v in sources]) for k in KEYS}
    print(f"fitting to {len(train['rows'])} training positions, validating on {len(every['rows'])}")
    baseline = {"loss": log_loss(every["linear"], every["returns"]),
                "accuracy": accuracy(every["linear"], every["returns"])}
    print(f"linear value (FITTED) on the validation positions: log-loss {baseline['loss']:.4f}, "
          f"accuracy {baseline['accuracy']:.4f}")
    arrays, curve = fit(train, every, args.hidden, args.epochs, args.batch, args.lr, args.seed)
    for name, held in sources:
        report(name, held, arrays, args.compare)
    args.model.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.model, **arrays)
    if args.curve:
        write_curve(curve, args.curve, baseline)
        write_svg(curve, args.curve.with_suffix(".svg"), baseline)
    return {**result, "train": len(train["rows"]), "valid": len(every["rows"]), "curve": curve, "baseline": baseline}


if __name__ == "__main__":
    main()
