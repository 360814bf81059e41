"""The speed benchmark's pure parts: the alternation order, min / median, ratios paired within a round,
plugin cost, goals, and where the language-server edits go. Nothing here times anything."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.run import (  # noqa: E402
    edit_sites,
    every_spec,
    goals,
    min_median,
    paired_added,
    paired_ratios,
    schedule,
    summarize,
    synthetic_file,
    verdict,
)


def test_schedule_alternates_every_command_once_per_round():
    assert schedule(["ast", "cli", "torchfix"], 3) == [
        (0, "ast"), (0, "cli"), (0, "torchfix"),
        (1, "ast"), (1, "cli"), (1, "torchfix"),
        (2, "ast"), (2, "cli"), (2, "torchfix"),
    ]
    assert schedule(["a"], 0) == [(0, "a")]  # at least one round


def test_min_median():
    assert min_median([3.0, 1.0, 2.0]) == (1.0, 2.0)
    assert min_median([4.0, 1.0]) == (1.0, 2.5)
    assert min_median([2.0, float("nan"), 1.0]) == (1.0, 1.5)  # a round without a figure is left out
    low, mid = min_median([])
    assert math.isnan(low) and math.isnan(mid)


def test_ratios_are_taken_within_a_round_not_between_minimums():
    # round 2 ran on a slow machine for both commands: its ratio is the same as round 1's
    cli, yardstick = [10.0, 20.0, 11.0], [2.0, 4.0, 1.0]
    assert paired_ratios(cli, yardstick) == [5.0, 5.0, 11.0]
    assert min_median(paired_ratios(cli, yardstick)) == (5.0, 5.0)
    # the ratio of the minimums would have been 10 / 1
    assert min(cli) / min(yardstick) == 10.0
    assert math.isnan(paired_ratios([1.0], [0.0])[0])


def test_plugin_cost_is_the_difference_with_flake8_alone_in_the_same_round():
    alone, ours, bugbear = [10.0, 12.0], [11.0, 13.5], [12.0, 15.0]
    assert paired_added(ours, alone) == [1.0, 1.5]
    assert paired_ratios(paired_added(ours, alone), paired_added(bugbear, alone)) == [0.5, 0.5]


def test_every_spec():
    assert every_spec("4", ["timm", "transformers"]) == {"timm": 4, "transformers": 4}
    assert every_spec("transformers=4", ["timm", "transformers"]) == {"timm": 1, "transformers": 4}


def _row():
    return {"mb": 2.0, "flake8_mb": 2.0, "subset_mb": 0.5, "flake8_every": 1,
            "cpu": {"ast.parse": [1.0, 2.0, 1.0], "cli": [2.5, 6.0, 4.0],
                    "flake8": [10.0, 10.0, 10.0], "flake8 + inplace-lint": [11.0, 11.0, 12.0],
                    "flake8 + bugbear": [14.0, 13.0, 10.0]}}


def test_summary_and_goals_are_judged_on_the_median():
    series = summarize({"timm": _row()})
    assert series["timm"]["cli/ast"] == [2.5, 3.0, 4.0]
    assert series["timm"]["cli s/MB"] == [1.25, 3.0, 2.0]
    assert series["timm"]["ours added s"] == [1.0, 1.0, 2.0]
    # round 3: bugbear added nothing measurable, so that round has no ratio
    assert series["timm"]["ours/bugbear"][:2] == [0.25, 1.0 / 3.0]
    assert math.isnan(series["timm"]["ours/bugbear"][2])
    assert min_median(series["timm"]["ours/bugbear"]) == (0.25, (0.25 + 1.0 / 3.0) / 2)
    judged = {(goal, where): (value, result)
              for goal, where, value, _bound, result in goals(series, None, None)}
    assert judged[("CLI -j1 --no-cache CPU / ast.parse", "timm")] == (3.0, "met")
    assert verdict(3.01, 3.0) == "not met"
    assert verdict(float("nan"), 3.0) == "not measured"


def test_edit_sites_split_functions_by_finding():
    text = synthetic_file(200)
    lines = text.split("\n")
    hazard_lines = [i + 1 for i, line in enumerate(lines) if line.strip() == "b.add_(1)"]
    sites = edit_sites(text, hazard_lines)
    assert sites["finding"] and sites["no finding"]
    for line, column in sites["finding"]:
        assert lines[line][:column].strip() == "return b"
    for line, column in sites["no finding"]:
        assert lines[line].lstrip().startswith("return ") and lines[line][:column].strip() != "return b"
        # the edit keeps the file valid Python
        edited = lines[:line] + [lines[line][:column] + " + 0" + lines[line][column:]] + lines[line + 1:]
        compile("\n".join(edited), "edited.py", "exec")


def test_a_function_a_finding_mentions_is_not_a_no_finding_site():
    text = ("def helper(x):\n    return x * 2\n\n\n"
            "def other(x):\n    return x + 1\n\n\n"
            "def step(a):\n    b = helper(a)\n    b.add_(1)\n    return b\n")
    sites = edit_sites(text, [11])
    assert sites["finding"] == [(11, 12)]
    assert sites["no finding"] == [(5, 16)]  # other's return, not helper's
