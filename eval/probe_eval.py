"""Generated probe programs: lint them, run them under torch, score precision and recall.

Each program is a small complete module: make an input, call one op in one spelling, write one tensor
in place in one spelling, run backward. torch decides whether it raises; the linter must put a finding
on the in-place line exactly when it does. This mirrors how the hidden evaluation scores a landing.

    python -m eval.probe_eval               # all programs, prints scores and every disagreement
    python -m eval.probe_eval --limit 200 --seed 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# op spellings: (name, template producing y from x (and w)); {x} and {w} are tensors.
UNARY = [
    "exp", "sigmoid", "tanh", "relu", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "log", "abs", "square",
    "erf", "atan", "log1p", "expm1", "neg", "sum", "mean", "clone", "t", "flatten", "norm", "std", "var",
    "prod", "logsumexp_1", "amax_1", "max", "cumsum_0", "softmax_0", "log_softmax_0", "asin", "acos",
    "sinh", "cosh", "floor", "round", "sign", "trunc", "frac", "exp2", "log2", "log10", "sigmoid",
    "contiguous", "float", "detach", "unsqueeze_0", "squeeze", "view_-1", "reshape_-1", "transpose_0_1",
    "narrow_0_0_1", "select_0_0", "diagonal", "tril", "triu", "cummax_0", "sort_0", "argmax", "masked_fill",
]
FUNCTIONAL = [
    "relu", "gelu", "silu", "elu", "leaky_relu", "softplus", "mish", "hardswish", "hardtanh", "relu6",
    "logsigmoid", "softsign", "tanhshrink", "sigmoid", "tanh", "selu", "celu", "hardsigmoid", "normalize",
    "softmax", "log_softmax", "dropout", "layer_norm", "glu", "softmin",
]
FUNCTIONAL_INPLACE = ["relu", "elu", "leaky_relu", "hardtanh", "relu6", "selu", "celu", "silu", "mish",
                      "hardswish", "hardsigmoid", "dropout", "threshold"]
MODULES = {
    "ReLU": "nn.ReLU()", "Sigmoid": "nn.Sigmoid()", "Tanh": "nn.Tanh()", "Softmax": "nn.Softmax(dim=-1)",
    "GELU": "nn.GELU()", "SiLU": "nn.SiLU()", "ELU": "nn.ELU()", "LeakyReLU": "nn.LeakyReLU(0.1)",
    "Linear": "nn.Linear(4, 4, dtype=torch.float64)", "LayerNorm": "nn.LayerNorm(4, dtype=torch.float64)",
    "Dropout": "nn.Dropout(0.5)", "Softplus": "nn.Softplus()", "Hardtanh": "nn.Hardtanh()",
    "LogSoftmax": "nn.LogSoftmax(dim=-1)", "Identity": "nn.Identity()",
}
BINARY = [
    ("x * w", "mul"), ("x / w", "div"), ("x + w", "add"), ("x - w", "sub"), ("x @ w", "matmul"),
    ("torch.mul(x, w)", "mul"), ("x.mul(w)", "mul"), ("torch.matmul(x, w)", "matmul"), ("x.div(w)", "div"),
    ("torch.maximum(x, w)", "maximum"), ("torch.atan2(x, w)", "atan2"), ("x ** 2", "pow"), ("x ** w", "pow"),
    ("2.0 ** x", "rpow"), ("1.0 / x", "rdiv"), ("x * 3.0", "mulscalar"), ("x / 3.0", "divscalar"),
    ("torch.where(x > 0, x, w)", "where"), ("torch.cat([x, w])", "cat"), ("torch.stack([x, w])", "stack"),
    ("torch.hypot(x, w)", "hypot"), ("torch.min(x, w)", "minimum"), ("x.pow(3)", "pow3"),
    ("torch.clamp(x, -0.5, 0.5)", "clamp"), ("x.clamp(min=0.1)", "clamp"), ("torch.dist(x, w)", "dist"),
    ("F.mse_loss(x, w)", "mse"), ("F.linear(x, w)", "linear"), ("torch.einsum('ij,jk->ik', x, w)", "einsum"),
    ("torch.mm(x, w)", "mm"), ("x.expand(2, 4, 4)", "expand"), ("torch.lerp(x, w, 0.3)", "lerp"),
    ("torch.addcmul(x, x, w)", "addcmul"), ("x.masked_fill(x > 0, 0.0)", "masked_fill"),
]
WRITES = [
    "{t} += 1", "{t} *= 2", "{t}.add_(1)", "{t}.mul_(2)", "{t}[0] = 0.5", "{t}.zero_()", "{t}.clamp_(-1, 1)",
    "{t}.sigmoid_()", "torch.relu_({t})", "{t}.copy_(torch.ones_like({t}))", "{t}.fill_(0.1)",
    "{t}.masked_fill_({t} > 10, 0.0)", "{t}.div_(3)", "{t} -= 0.5", "{t}[:, 1:] = 1.0", "{t}.exp_()",
    "F.relu({t}, inplace=True)", "{t}.detach().add_(1)", "{t}.data.add_(1)", "{t}[0].mul_(2)",
    "{t}.t().mul_(2)", "{t}.view(-1).add_(1)", "torch.add({t}, 1, out={t})", "{t}.unsqueeze(0).zero_()",
]


@dataclass
class Program:
    key: str
    source: str
    write_line: int


def _unary_call(spec: str) -> Tuple[str, str]:
    parts = spec.split("_")
    name, args = parts[0], parts[1:]
    if name == "masked_fill":
        return "x.masked_fill(x > 0, 0.0)", "x.masked_fill(x > 0, 0.0)"
    arg_text = ", ".join(args)
    return f"torch.{name}(x{', ' if arg_text else ''}{arg_text})", f"x.{name}({arg_text})"


HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"


def program(key: str, setup: List[str], op: str, write: str, target: str, backward: str,
            wrap_op: Optional[str] = None) -> Program:
    lines = ["def run():", "    torch.manual_seed(0)"]
    lines += ["    " + s for s in setup]
    if wrap_op:
        lines += [f"    with {wrap_op}:", f"        y = {op}"]
    else:
        lines += [f"    y = {op}"]
    write_text = write.format(t=target)
    lines += [f"    {write_text}"]
    write_line = HEADER.count("\n") + len(lines)
    lines += [f"    {backward}", "    return y", ""]
    return Program(key, HEADER + "\n".join(lines), write_line)


def generate(rng: random.Random, limit: Optional[int]) -> List[Program]:
    programs: List[Program] = []
    grad_setup = ["a = torch.rand(4, 4, dtype=torch.float64, requires_grad=True)", "x = a + 0.5"]
    w_setup = ["b = torch.rand(4, 4, dtype=torch.float64, requires_grad=True)", "w = b + 0.5"]
    plain_setup = ["x = torch.rand(4, 4, dtype=torch.float64) + 0.5"]
    backward = "(y.sum() if y.dtype.is_floating_point else x.sum()).backward()"
    for spec in UNARY:
        for form, op in zip(("fn", "method"), _unary_call(spec)):
            if spec in ("t", "flatten", "contiguous", "float", "detach", "squeeze", "diagonal", "unsqueeze_0",
                        "view_-1", "reshape_-1", "transpose_0_1", "narrow_0_0_1", "select_0_0") and form == "fn":
                continue
            if spec in ("max", "sort_0", "cummax_0"):
                op = op.replace(")", ")[0]", 1) if spec != "max" else op
            for write in WRITES:
                for target in ("y", "x"):
                    programs.append(program(f"unary/{spec}/{form}/{target}/{write}", grad_setup, op, write, target,
                                            backward))
            for write in WRITES[:6]:
                programs.append(program(f"unary-nograd-input/{spec}/{form}/{write}", plain_setup, op, write, "y",
                                        "x.sum()"))
                programs.append(program(f"unary-no_grad-block/{spec}/{form}/{write}", grad_setup, op, write, "y",
                                        "x.sum().backward()", wrap_op="torch.no_grad()"))
    for name in FUNCTIONAL:
        op = f"F.{name}(x)" if name not in ("softmax", "log_softmax", "softmin") else f"F.{name}(x, dim=-1)"
        if name == "layer_norm":
            op = "F.layer_norm(x, (4,))"
        for write in WRITES:
            for target in ("y", "x"):
                programs.append(program(f"functional/{name}/{target}/{write}", grad_setup, op, write, target,
                                        backward))
    for name in FUNCTIONAL_INPLACE:
        op = f"F.{name}(x, inplace=True)" if name != "threshold" else "F.threshold(x, 0.6, 0.0, inplace=True)"
        pre = ["h = torch.sigmoid(x)"]
        for write in ("y += 1", "y.mul_(2)", "y[0] = 0.0"):
            programs.append(program(f"functional-inplace/{name}/{write}", grad_setup, op, write, "y", backward))
        # the in-place functional itself overwrites a result exp saved
        programs.append(program(f"functional-inplace-on-saved/{name}", grad_setup, "torch.exp(x)",
                                op.replace("(x", "({t}"), "y", backward))
    for name, ctor in MODULES.items():
        setup = grad_setup + [f"m = {ctor}"]
        for write in WRITES[:8]:
            for target in ("y", "x"):
                programs.append(program(f"module/{name}/{target}/{write}", setup, "m(x)", write, target, backward))
    for op, name in BINARY:
        for w_grad in (True, False):
            setup = grad_setup + (w_setup if w_grad else ["w = torch.rand(4, 4, dtype=torch.float64) + 0.5"])
            for write in WRITES[:10]:
                for target in ("y", "x", "w"):
                    if target == "w" and "w" not in op:
                        continue
                    programs.append(program(f"binary/{name}:{op}/{'wgrad' if w_grad else 'wplain'}/{target}/{write}",
                                            setup, op, write, target, backward))
    # the seed shapes
    programs.append(Program("seed/loop", HEADER + textwrap.dedent("""\
        def run():
            a = torch.tensor(10.0, requires_grad=True)
            b = a ** 2
            for _ in range(5):
                b *= b
            b.backward()
            return b
        """), HEADER.count("\n") + 5))
    rng.shuffle(programs)
    return programs[:limit] if limit else programs


RUNNER = r"""
import json, sys, traceback
results = {}
for key, source in json.load(open(sys.argv[1])).items():
    ns = {"__name__": "probe"}
    try:
        exec(compile(source, key, "exec"), ns)
        ns["run"]()
        results[key] = None
    except RuntimeError as e:
        text = str(e)
        if "modified by an inplace operation" in text:
            results[key] = "AGI001"
        elif "leaf Variable that requires grad" in text:
            results[key] = "AGI002"
        else:
            results[key] = "other: " + text.splitlines()[0][:120]
    except Exception as e:
        results[key] = "other: %s: %s" % (type(e).__name__, str(e).splitlines()[0][:120] if str(e) else "")
json.dump(results, open(sys.argv[2], "w"))
"""


def run_under_torch(programs: List[Program], python: str) -> Dict[str, Optional[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "programs.json")
        out = os.path.join(tmp, "results.json")
        runner = os.path.join(tmp, "runner.py")
        with open(src, "w") as f:
            json.dump({p.key: p.source for p in programs}, f)
        with open(runner, "w") as f:
            f.write(RUNNER)
        subprocess.run([python, runner, src, out], check=True, timeout=1800)
        with open(out) as f:
            return json.load(f)


def score(programs: List[Program], truth: Dict[str, Optional[str]]):
    from inplace_lint import lint_source

    tp = fp = fn = tn = 0
    wrong: List[str] = []
    for p in programs:
        outcome = truth.get(p.key)
        if outcome is not None and outcome.startswith("other"):
            continue  # the program itself is invalid for this op: not a probe
        findings = lint_source(p.source, p.key)
        on_line = {f.code for f in findings if f.start.line == p.write_line}
        elsewhere = [f for f in findings if f.start.line != p.write_line]
        if outcome in ("AGI001", "AGI002"):
            if outcome in on_line or on_line:
                tp += 1
            else:
                fn += 1
                wrong.append(f"MISSED {outcome} {p.key}")
            fp += len(elsewhere)
        else:
            tn += 1 if not findings else 0
            if findings:
                fp += len(findings)
                wrong.append(f"FALSE {p.key}: {findings[0].code} line {findings[0].start.line}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, tp, fp, fn, tn, wrong


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python", default=sys.executable, help="interpreter that has torch")
    parser.add_argument("--show", type=int, default=60, help="disagreements to print")
    parser.add_argument("--grep", default="", help="only print disagreements containing this")
    args = parser.parse_args(argv)
    programs = generate(random.Random(args.seed), args.limit)
    truth = run_under_torch(programs, args.python)
    precision, recall, tp, fp, fn, tn, wrong = score(programs, truth)
    invalid = sum(1 for v in truth.values() if v and v.startswith("other"))
    print(f"programs {len(programs)} (invalid {invalid}), raising {tp + fn}, clean {tn}")
    print(f"precision {precision:.3f} recall {recall:.3f} (tp {tp} fp {fp} fn {fn})")
    for line in [w for w in sorted(wrong) if args.grep in w][: args.show]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
