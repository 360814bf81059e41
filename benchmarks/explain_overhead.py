"""The wall-clock cost of ``inplace-lint explain``'s tracer on CPU training steps.

    python -m benchmarks.explain_overhead [--steps 50] [--rounds 5] [--threads 1]

Two small models, a CNN (conv-bn-relu blocks on 32x32 images) and a transformer (2 encoder layers,
d_model 64, 32 tokens), each trained ``--steps`` steps (forward + backward + ``optimizer.step()``).
In one process, untraced and traced runs alternate (``--rounds`` of each, the order flipped every round,
so drift in the machine's speed hits both); a warm-up run of each comes first. Reported: min and median
seconds per run, and traced / untraced for both. The traced run is ``with inplace_lint.explain():``
around the loop -- what ``inplace-lint explain script.py`` does around the whole program.
"""

from __future__ import annotations

import argparse
import statistics
import time


def _cnn():
    import torch
    from torch import nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                             nn.ReLU(inplace=True))

    model = nn.Sequential(block(3, 16), block(16, 16), nn.MaxPool2d(2), block(16, 32), block(32, 32),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
    x, y = torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))
    return model, (lambda: nn.functional.cross_entropy(model(x), y))


def _transformer():
    import torch
    from torch import nn

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(100, 64)
            layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = nn.Linear(64, 100)

        def forward(self, ids):
            return self.head(self.encoder(self.embed(ids)))

    model = Tiny()
    ids = torch.randint(0, 100, (8, 32))
    return model, (lambda: nn.functional.cross_entropy(model(ids).flatten(0, 1), ids.flatten()))


def _train(make, steps: int, traced: bool) -> float:
    import torch

    import inplace_lint

    torch.manual_seed(0)
    model, loss_fn = make()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start = time.perf_counter()
    if traced:
        with inplace_lint.explain():
            _steps(model, loss_fn, opt, steps)
    else:
        _steps(model, loss_fn, opt, steps)
    return time.perf_counter() - start


def _steps(model, loss_fn, opt, steps):
    model.train()
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        opt.step()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch.set_num_threads (default 1: a shared machine)")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {args.steps} steps per run, {args.rounds} rounds, "
          f"{args.threads} thread(s)")
    for name, make in (("cnn", _cnn), ("transformer", _transformer)):
        _train(make, 5, False), _train(make, 5, True)  # warm-up: lazy imports, allocator
        times = {False: [], True: []}
        for round_ in range(args.rounds):
            for traced in ((False, True) if round_ % 2 == 0 else (True, False)):
                times[traced].append(_train(make, args.steps, traced))
        plain, traced = times[False], times[True]
        print(f"{name:12} untraced min {min(plain):.3f} s median {statistics.median(plain):.3f} s | "
              f"traced min {min(traced):.3f} s median {statistics.median(traced):.3f} s | "
              f"ratio min {min(traced) / min(plain):.2f}x median "
              f"{statistics.median(traced) / statistics.median(plain):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
