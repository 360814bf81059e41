"""Generated probe programs (eval/probe_eval.py), scored the way the hidden evaluation scores a
landing: torch decides which programs raise; a raising program counts as found only when a finding sits
on its in-place line. A sample runs by default; the full set (~10,000 programs) with --run-slow."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
pytest.importorskip("torch")

from eval.probe_eval import generate, run_under_torch, score  # noqa: E402


def _evaluate(limit):
    programs = generate(random.Random(0), limit)
    truth = run_under_torch(programs, sys.executable)
    return score(programs, truth)


def test_probe_programs_sample():
    precision, recall, tp, fp, fn, tn, wrong = _evaluate(600)
    assert tp > 100 and tn > 200, (tp, tn)
    assert precision >= 0.97, wrong[:20]
    assert recall >= 0.97, wrong[:20]


@pytest.mark.slow
def test_probe_programs_full():
    precision, recall, *_rest, wrong = _evaluate(None)
    assert precision >= 0.97 and recall >= 0.97, wrong[:40]
