#!/usr/bin/env python3
"""Example external oracle for `dpareto explore --oracle-cmd` (see docs/readme/study.md).

A stand-in for a DP training script: it "trains" for --epochs passes with Gaussian noise
multiplier --noise and learning rate --lr, accounts the privacy of the epochs' composition of
Gaussian mechanisms with RDP (alpha / (2 sigma^2) per epoch, converted at --delta), and prints one
JSON object on stdout:

    {"epsilon": ..., "delta": ..., "utility": ..., "utility_min": ..., "utility_max": ...}

Progress goes to stderr (dpareto keeps it in a per-evaluation log file). --sleep simulates a slow
evaluation; the utility depends on --seed only through its noise, so a seeded run is reproducible.

    dpareto explore --space experiments/example_oracle_space.json --budget 20 --seed 1 \
        --oracle-cmd 'python3 experiments/example_oracle.py --lr {lr} --epochs {epochs} --noise {noise} --seed {seed}'
"""
import argparse
import json
import math
import random
import sys
import time


def rdp_epsilon(noise, epochs, delta):
    """(epsilon, delta) of `epochs` Gaussian mechanisms with noise multiplier `noise` (RDP)."""
    orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)) + [128, 256, 512]
    return min(epochs * a / (2 * noise ** 2) + math.log(1 / delta) / (a - 1) for a in orders)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lr", type=float, required=True)
    parser.add_argument("--epochs", type=int, required=True)
    parser.add_argument("--noise", type=float, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--delta", type=float, default=1e-5)
    parser.add_argument("--sleep", type=float, default=0.0, help="seconds to spend 'training'")
    args = parser.parse_args()
    if args.lr <= 0 or args.epochs < 1 or args.noise <= 0:
        print(f"invalid hyperparameters {vars(args)}", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    if args.sleep > 0:
        time.sleep(args.sleep)
    # Accuracy rises with training (epochs, a learning rate near 0.1) and falls with the noise.
    progress = 1 - math.exp(-args.epochs * min(args.lr, 1.0) * 2)
    lr_penalty = 0.15 * math.log10(args.lr / 0.1) ** 2
    noise_penalty = 0.35 * (1 - math.exp(-args.noise / 4)) * (args.lr / 0.1) ** 0.3
    mean = max(0.1, 0.1 + 0.8 * progress - lr_penalty - noise_penalty)
    runs = [min(1.0, max(0.0, mean + rng.gauss(0, 0.01))) for _ in range(3)]
    print(f"trained {args.epochs} epochs: accuracies {runs}", file=sys.stderr)
    print(json.dumps({"epsilon": rdp_epsilon(args.noise, args.epochs, args.delta), "delta": args.delta,
                      "utility": sum(runs) / len(runs), "utility_min": min(runs), "utility_max": max(runs)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
