#!/usr/bin/python3
"""PyTorch's side of bench/pytorch_side_by_side.sh (issue 16): one epoch over the full training set,
lot 256, float32, on CPU, for the models of bench_learners, non-private and DP-SGD.

DP-SGD uses ghost-norm clipping (Goodfellow 2015; Lee & Kifer 2021): for a dense layer the per-
example gradient is a_i ⊗ δ_i, so its squared norm is (‖a_i‖² + 1)‖δ_i‖² with the bias; one backward
pass gives every δ, the clipped sum is Aᵀ diag(c) Δ per layer, and Gaussian noise σL is added to the
sum. This is the fastest DP-SGD PyTorch offers on CPU for these models (Opacus's ghost clipping
does the same two products). Lots are uniform permutations cut into lots of 256, as the
non-private baseline uses; dpareto's Poisson lots differ only in lot formation.

Prints one line per model: `model plain_seconds dp_seconds` (best of several epochs).
Usage: pytorch_epochs.py THREADS DATA_DIR [model ...]   (models: a9a-logreg mnist-mlp2 mnist-mlp1)
"""
import gzip
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

LOT = 256


def load_a9a(path, dim=123):
    xs, ys = [], []
    with open(path) as f:
        for line in f:
            tokens = line.split()
            row = np.zeros(dim, dtype=np.float32)
            for t in tokens[1:]:
                i, v = t.split(":")
                row[int(i) - 1] = float(v)
            xs.append(row)
            ys.append(1 if float(tokens[0]) > 0 else 0)
    return torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def load_mnist(root):
    with gzip.open(os.path.join(root, "train-images-idx3-ubyte.gz")) as f:
        _, n, rows, cols = struct.unpack(">IIII", f.read(16))
        x = np.frombuffer(f.read(), dtype=np.uint8).reshape(n, rows * cols).astype(np.float32) / 255
    with gzip.open(os.path.join(root, "train-labels-idx1-ubyte.gz")) as f:
        f.read(8)
        y = np.frombuffer(f.read(), dtype=np.uint8).astype(np.int64)
    return torch.from_numpy(x), torch.from_numpy(y)


def layers(widths, generator):
    params = []
    for fan_in, fan_out in zip(widths, widths[1:]):
        bound = (6.0 / fan_in) ** 0.5
        w = (torch.rand(fan_in, fan_out, generator=generator) * 2 - 1) * bound
        params += [w.requires_grad_(), torch.zeros(fan_out, requires_grad=True)]
    return params


def forward(params, x):
    """Returns the inputs of every layer and the pre-activations (kept for the ghost norms)."""
    inputs, pre = [], []
    h = x
    for l in range(0, len(params), 2):
        inputs.append(h)
        z = h @ params[l] + params[l + 1]
        pre.append(z)
        h = torch.relu(z) if l + 2 < len(params) else z
    return inputs, pre


def loss_sum(logits, y, binary):
    if binary:
        return F.binary_cross_entropy_with_logits(logits.squeeze(1), y.float(), reduction="sum")
    return F.cross_entropy(logits, y, reduction="sum")


def epoch(params, x, y, binary, dp, lr=0.01, sigma=1.0, clip=1.0):
    n = x.shape[0]
    order = torch.randperm(n)
    for start in range(0, n - LOT + 1, LOT):
        idx = order[start:start + LOT]
        xb, yb = x[idx], y[idx]
        inputs, pre = forward(params, xb)
        loss = loss_sum(pre[-1], yb, binary)
        if not dp:
            grads = torch.autograd.grad(loss, params)
        else:
            deltas = torch.autograd.grad(loss, pre)  # row i is example i's δ (the loss is a sum)
            with torch.no_grad():
                norms_sq = sum((a.square().sum(1) + 1) * d.square().sum(1) for a, d in zip(inputs, deltas))
                scale = (clip / norms_sq.sqrt()).clamp(max=1.0).unsqueeze(1)
                grads = []
                for a, d in zip(inputs, deltas):
                    cd = d * scale
                    grads += [a.t() @ cd, cd.sum(0)]
                grads = [g + sigma * clip * torch.randn_like(g) for g in grads]
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= (lr / LOT) * g


def best_epoch(widths, x, y, binary, dp, runs):
    best = float("inf")
    for r in range(runs):
        params = layers(widths, torch.Generator().manual_seed(1000 + r))
        start = time.perf_counter()
        epoch(params, x, y, binary, dp)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    threads, root = int(sys.argv[1]), sys.argv[2]
    models = sys.argv[3:] or ["a9a-logreg", "mnist-mlp2", "mnist-mlp1"]
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    for model in models:
        if model == "a9a-logreg":
            x, y = load_a9a(os.path.join(root, "adult", "a9a"))
            widths, binary, runs = [123, 1], True, 10
        elif model in ("mnist-mlp2", "mnist-mlp1"):
            x, y = load_mnist(os.path.join(root, "mnist"))
            widths = [784, 128, 64, 10] if model == "mnist-mlp2" else [784, 1000, 10]
            binary, runs = False, 5 if model == "mnist-mlp2" else 3
        else:
            sys.exit(f"pytorch_epochs.py: unknown model '{model}' (a9a-logreg, mnist-mlp2, mnist-mlp1)")
        plain = best_epoch(widths, x, y, binary, False, runs)
        dp = best_epoch(widths, x, y, binary, True, runs)
        print(f"{model} {plain:.5f} {dp:.5f}", flush=True)


if __name__ == "__main__":
    main()
