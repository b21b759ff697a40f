"""``spots train``: the command line of ``spots.rl.train`` (importable without the train extra)."""

from __future__ import annotations

import argparse

MISSING = ("spots train needs the train extra (PyTorch CPU and sb3-contrib): "
           "pip install 'spots[train]'  (see docs/rl.md, 'Training')")


def build_parser() -> argparse.ArgumentParser:
    """Every TrainConfig field as an option (defaults from spots.rl.train.TrainConfig)."""
    parser = argparse.ArgumentParser(prog="spots train", description="Train a masked-PPO Spots agent; "
                                     "writes progress.csv, checkpoint.zip and policy.npz into --out.")
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps (agent decisions)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/ppo", help="folder for progress.csv, checkpoint.zip, policy.npz")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (one process)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tricks", default="beginner")
    parser.add_argument("--target", type=int, default=6, help="scored dogs to win")
    parser.add_argument("--opponents", default="random,greedy",
                        help="comma-separated bot names; each episode every other seat draws one")
    parser.add_argument("--shaping", default="dense", help="a preset of spots.rl.rewards.PRESETS")
    parser.add_argument("--eval-every", type=int, default=50_000, help="steps between evaluations and checkpoints")
    parser.add_argument("--eval-games", type=int, default=40, help="games against random and against greedy")
    parser.add_argument("--n-steps", type=int, default=256, help="rollout length per environment")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.99, help="discount")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--net", default="128,64", help="hidden layer sizes of the policy and of the value network")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.zip")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.steps <= 0 or args.envs <= 0 or args.eval_every <= 0 or args.eval_games <= 0:
        raise ValueError("--steps, --envs, --eval-every and --eval-games must be positive")
    try:
        from .train import TrainConfig, train
    except ImportError as exc:
        print(f"{MISSING} ({exc})")
        return 2
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    try:
        net = [int(size) for size in args.net.split(",")]
    except ValueError:
        raise ValueError(f"--net takes comma-separated layer sizes such as 128,64, not {args.net!r}") from None
    config = TrainConfig(steps=args.steps, seed=args.seed, out=args.out, envs=args.envs, players=args.players,
                         tricks=args.tricks, target=args.target, opponents=opponents, shaping=args.shaping,
                         eval_every=args.eval_every, eval_games=args.eval_games, n_steps=args.n_steps,
                         batch_size=args.batch_size, epochs=args.epochs, learning_rate=args.learning_rate,
                         gamma=args.gamma, ent_coef=args.ent_coef, net=net, threads=args.threads)
    try:
        out = train(config, resume=args.resume)
    except ImportError as exc:
        print(f"{MISSING} ({exc})")
        return 2
    print(f"results in {out}")
    return 0
