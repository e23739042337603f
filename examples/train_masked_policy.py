"""Train a masked policy on a meeple game with numpy alone, then measure it (docs/rl.md).

    uv run python examples/train_masked_policy.py          # Gardens, 2 players: ~6 min + ~3 min
    uv run python examples/train_masked_policy.py --minutes 1 --eval 200 --eval-easy 40 --out /tmp/run

The policy is linear: logits = W x + b over the flat observation (each value scaled by its
block's upper bound), softmax over the legal actions only (the action mask). It learns by
REINFORCE with a running baseline in ``single_agent_env`` against a ``random`` opponent,
rewarded by the end result (win 1, loss -1) plus a small per-step score change (shaping),
so the gradient is not silent for the many early games. No torch, no GPU.

It writes to ``--out``: ``policy.npz`` (W, b and how to read them), ``curve.png`` (win rate
and mean score during training), and ``result.json``: win rates with 95 % Wilson intervals
against ``random`` and ``easy`` over fresh seeds, beside ``random`` against the same
opponents.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from meeple.rl import single_agent_env


class LinearPolicy:
    """Masked softmax over ``W @ x + b``."""

    def __init__(self, n_obs: int, n_actions: int, scale: np.ndarray) -> None:
        self.W = np.zeros((n_actions, n_obs), np.float32)
        self.b = np.zeros(n_actions, np.float32)
        self.scale = scale.astype(np.float32)

    def features(self, obs: np.ndarray) -> np.ndarray:
        return obs.astype(np.float32) * self.scale

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = mask.astype(bool)
        logits = (self.W[legal] @ x + self.b[legal]).astype(np.float64)
        logits -= logits.max()
        p = np.exp(logits)
        out = np.zeros(mask.shape[0], np.float64)
        out[legal] = p / p.sum()
        return out

    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator, greedy: bool = False) -> int:
        p = self.probs(self.features(obs["observation"]), obs["action_mask"])
        if greedy:
            return int(np.argmax(p))
        return int(rng.choice(p.shape[0], p=p))

    def save(self, path: Path, meta: dict[str, Any]) -> None:
        np.savez_compressed(path, W=self.W, b=self.b, scale=self.scale,
                            meta=json.dumps(meta))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate (a tie counts as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(env: Any, choose: Any, seed: int) -> tuple[float, int]:
    """One game; returns (win credit 1 / 0.5 / 0, learner's final score)."""
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        obs, _r, done, _t, info = env.step(choose(obs))
    me = env.unwrapped.seat
    return credit(info, me), info["scores"][me]


def credit(info: dict[str, Any], me: int) -> float:
    """A win 1, a shared win 1/k, a loss 0 (the winners by the rulebook's tie-breaks)."""
    winners = info["winners"]
    return 1.0 / len(winners) if me in winners else 0.0


def evaluate(policy: LinearPolicy | None, game: str, opponent: str, games: int,
             options: dict[str, Any], first_seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(first_seed)
    env = single_agent_env(game, seat=0, opponents=[opponent], **options)
    total = 0.0
    scores = []
    for i in range(games):
        if policy is None:
            def choose(obs: dict[str, np.ndarray]) -> int:
                return int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            def choose(obs: dict[str, np.ndarray]) -> int:
                return policy.act(obs, rng, greedy=True)
        credit, score = play(env, choose, first_seed + i)
        total += credit
        scores.append(score)
    lo, hi = wilson(total, games)
    return {"opponent": opponent, "games": games, "win_rate": total / games,
            "ci95": [lo, hi], "mean_score": float(np.mean(scores))}


def train(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {"shaping": True}
    if args.level is not None:
        options["level"] = args.level
    if args.sheet is not None:
        options["sheet"] = args.sheet
    env = single_agent_env(args.game, seat=0, opponents=[args.opponent], **options)
    enc = env.unwrapped.encoding
    high = np.maximum(np.abs(enc.high.astype(np.float32)), np.abs(enc.low.astype(np.float32)))
    policy = LinearPolicy(enc.size, len(enc.actions), 1.0 / np.maximum(high, 1.0))
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    curve: list[tuple[int, float, float]] = []
    window: list[tuple[float, int]] = []
    deadline = time.monotonic() + args.minutes * 60
    episode = 0
    started = time.monotonic()
    with Progress(TextColumn("[bold]training[/] {task.fields[status]}"), BarColumn(),
                  TimeElapsedColumn()) as bar:
        task = bar.add_task("train", total=args.minutes * 60, status="")
        while time.monotonic() < deadline:
            obs, _ = env.reset(seed=args.seed * 1_000_003 + episode)
            xs, masks, acts, rewards = [], [], [], []
            done = False
            while not done:
                x = policy.features(obs["observation"])
                p = policy.probs(x, obs["action_mask"])
                a = int(rng.choice(p.shape[0], p=p))
                xs.append(x)
                masks.append(obs["action_mask"].astype(bool))
                acts.append(a)
                obs, r, done, _t, info = env.step(a)
                rewards.append(r)
            # the end result weighs most; the score changes help early on
            won = credit(info, 0)
            end = 2 * won - 1  # the env's win reward for two seats: 1, 0 or -1
            shaped = np.asarray(rewards, np.float64)
            shaped[-1] -= end
            shaped *= args.shaping
            shaped[-1] += end
            returns = np.cumsum(shaped[::-1])[::-1]
            baseline = 0.99 * baseline + 0.01 * float(returns.mean())
            for x, m, a, g in zip(xs, masks, acts, returns, strict=True):
                p = policy.probs(x, m.astype(np.int8))
                grad = -p
                grad[a] += 1.0
                adv = (g - baseline) * args.lr
                rows = np.flatnonzero(m)
                policy.W[rows] += adv * np.outer(grad[rows], x).astype(np.float32)
                policy.b[rows] += (adv * grad[rows]).astype(np.float32)
            window.append((won, info["scores"][0]))
            episode += 1
            if episode % 50 == 0:
                rate = float(np.mean([w for w, _ in window]))
                mean = float(np.mean([s for _, s in window]))
                curve.append((episode, rate, mean))
                window.clear()
                bar.update(task, completed=time.monotonic() - started,
                           status=f"episode {episode}: win rate {rate:.2f}, score {mean:.1f}")
    meta = {"game": args.game, "options": options, "opponent": args.opponent,
            "episodes": episode, "layout": enc.describe(), "actions": list(enc.actions)}
    policy.save(out / "policy.npz", meta)
    _plot(curve, out / "curve.png", args)
    result = {
        "game": args.game, "variant": {k: v for k, v in options.items() if k != "shaping"},
        "episodes": episode, "minutes": args.minutes,
        "policy": [evaluate(policy, args.game, o, n, options, 10_000_000)
                   for o, n in (("random", args.eval), ("easy", args.eval_easy))],
        "random": [evaluate(None, args.game, o, n, options, 10_000_000)
                   for o, n in (("random", args.eval), ("easy", args.eval_easy))],
    }
    (out / "result.json").write_text(json.dumps(result, indent=2))
    for who in ("policy", "random"):
        for row in result[who]:
            lo, hi = row["ci95"]
            print(f"{who:>7} vs {row['opponent']:<7} win rate {row['win_rate']:.3f} "
                  f"(95 % CI {lo:.3f}-{hi:.3f}), mean score {row['mean_score']:.1f} "
                  f"over {row['games']} games")
    print(f"saved {out / 'policy.npz'}, {out / 'curve.png'}, {out / 'result.json'}")


def _plot(curve: list[tuple[int, float, float]], path: Path, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    if curve:
        ep, rate, mean = zip(*curve, strict=True)
        ax.plot(ep, rate, color="tab:blue", label="win rate (50 games)")
        ax.set_ylim(0, 1)
        ax2 = ax.twinx()
        ax2.plot(ep, mean, color="tab:orange", alpha=0.7, label="mean score")
        ax2.set_ylabel("mean score")
        ax.legend(loc="upper left")
        ax2.legend(loc="lower right")
    ax.axhline(0.5, color="grey", lw=0.7, ls="--")
    ax.set_xlabel("training games")
    ax.set_ylabel(f"win rate vs {args.opponent}")
    ax.set_title(f"masked linear policy, REINFORCE: {args.game}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="gardens")
    ap.add_argument("--level", type=int, default=None,
                    help="the variant's level (Gardens, Reefs; default: the game's first)")
    ap.add_argument("--sheet", default=None, help="the variant's sheet (Takenokolor)")
    ap.add_argument("--opponent", default="random", help="the training opponent (a bot spec)")
    ap.add_argument("--minutes", type=float, default=6.0, help="training time")
    ap.add_argument("--eval", type=int, default=1000, help="evaluation games against random")
    ap.add_argument("--eval-easy", type=int, default=150,
                    help="evaluation games against easy (about half a second each)")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--shaping", type=float, default=0.02, help="weight of the score changes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="rl-run")
    train(ap.parse_args())


if __name__ == "__main__":
    main()
