"""docs/api.md's examples run: every ```python block, in order, in one namespace (each one asserts what
the page says it shows). Also: the API's columns agree with the JSON format's."""

import contextlib
import io
import re
from pathlib import Path

import pytest

API_PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _blocks():
    return re.findall(r"```python\n(.*?)```", API_PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples():
    assert len(_blocks()) >= 5


def test_every_example_runs():
    namespace: dict = {}
    for number, block in enumerate(_blocks(), 1):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(block, f"docs/api.md example {number}", "exec"), namespace)
        except Exception as error:  # name the block that failed
            pytest.fail(f"docs/api.md example {number} failed: {type(error).__name__}: {error}\n{block}")


def test_api_columns_match_the_json_format():
    from inplace_lint import lint_source
    from inplace_lint.adapters.output import format_json

    source = "import torch\ndef fn(a):\n    b = a ** 2\n    for i in range(5):\n        b *= b\n" \
        "    return b\nfn(torch.tensor(5.0, requires_grad=True)).backward()\n"
    (finding,) = lint_source(source, "seed.py")
    import json

    (entry,) = json.loads(format_json([finding]))
    assert entry == finding.to_dict()
    assert entry["location"] == {"row": finding.line, "column": finding.column}
