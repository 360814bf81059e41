"""AGI003's message quotes what torch 2.13 really raises for the op that made the views ("Output 2 of
Unbind", "Output 1 of SplitWithSizes"), and names the other outputs of the same call. Each snippet is
linted, then run under torch: the quoted text must be in torch's error, "..." standing for what the code
does not tell (an unknown output, a view's own node)."""

from __future__ import annotations

import re
import textwrap

import pytest

from inplace_lint import lint_source

SETUP = "import torch\nw = torch.randn(6, 4, 2, requires_grad=True)\n"

# (snippet, how the message's torch text begins, the sibling clause or None)
CASES = {
    "unbind_output_2": ("q, k, v = (w[:3] * 2).unbind(0)\nv *= 2\n", "Output 2 of Unbind is a view",
                        "`v`, `k` and `q` are outputs of `(w[:3] * 2).unbind(0)`"),
    "torch_unbind_subscript": ("y = torch.unbind(w * 2, 1)[3]\ny.add_(1)\n",
                               "Output 3 of Unbind is a view", None),
    # a write through the tuple of outputs: the names of the others are "also" outputs
    "tuple_subscript": ("parts = (w * 2).split(2)\na, b, c = parts\nparts[1].add_(1)\n",
                        "Output 1 of Split is a view", "`a` and `c` are also outputs of `(w * 2).split(2)`"),
    "split_int": ("a, b, c = (w * 2).split(2)\nc.mul_(2)\n", "Output 2 of Split is a view",
                  "`c`, `a` and `b` are outputs of `(w * 2).split(2)`"),
    "split_sizes": ("parts = (w * 2).split([1, 5])\nparts[1].add_(1)\n",
                    "Output 1 of SplitWithSizes is a view", None),
    "torch_split_sizes": ("a, b = torch.split(w * 2, (2, 4))\nb.zero_()\n",
                          "Output 1 of SplitWithSizes is a view", "`b` and `a` are outputs of"),
    "split_with_sizes": ("a, b = (w * 2).split_with_sizes([2, 4])\na.zero_()\n",
                         "Output 0 of SplitWithSizes is a view", "`a` and `b` are outputs of"),
    "split_unknown_size": ("n = len(w) // 3\na, b, c = (w * 2).split(n)\nb.zero_()\n",
                           "Output 1 of ... is a view", "`b`, `a` and `c` are outputs of"),
    "chunk": ("q, k = (w * 2).chunk(2, dim=-1)\nk += 1\n", "Output 1 of Split is a view",
              "`k` and `q` are outputs of `(w * 2).chunk(2, dim=-1)`"),
    "torch_chunk": ("x = torch.chunk(w * 2, 3)[2]\nx.add_(1)\n", "Output 2 of Split is a view", None),
    "view_of_an_output": ("a, b = (w * 2).chunk(2)\na.view(-1).mul_(2)\n", "... is a view",
                          "`a` and `b` are outputs of `(w * 2).chunk(2)`"),
    "loop_over_outputs": ("for part in (w * 2).chunk(3):\n    part.add_(1)\n",
                          "Output ... of Split is a view", None),
    "unpacked_tensor": ("h, c = w[:2] * 2\nc.zero_()\n", "Output 1 of Unbind is a view",
                        "`c` and `h` are rows of `w[:2] * 2`"),
    "iterated_tensor": ("for row in w * 2:\n    row.add_(1)\n", "Output ... of Unbind is a view", None),
}


def _message(snippet: str) -> str:
    (finding,) = [f for f in lint_source(SETUP + snippet, "snippet.py") if f.code == "AGI003"]
    return finding.message


def _torch_error(snippet: str) -> str:
    import torch  # noqa: F401  (the snippet imports it too)

    with pytest.raises(RuntimeError) as raised:
        exec(compile(SETUP + snippet, "snippet.py", "exec"), {})
    return str(raised.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_message_quotes_what_torch_raises(name):
    snippet, begins, siblings = CASES[name]
    message = _message(snippet)
    quoted = re.search(r'torch raises at once "([^"]*)"', message).group(1)
    assert quoted.startswith(begins), message
    pytest.importorskip("torch")
    error = _torch_error(snippet)
    # every piece between the "..." is in torch's error, in order; a leading piece begins it
    pattern = ".*?".join(re.escape(piece) for piece in quoted.split("..."))
    assert re.match(pattern, error, re.S), (quoted, error)
    if siblings is None:
        assert "views of one tensor" not in message
    else:
        assert siblings in message and "they share its version counter" in message, message


def test_an_unknown_origin_keeps_the_general_wording():
    # the same write reached from two different ops: neither op is named
    snippet = textwrap.dedent("""\
        def pick(flag):
            y = w * 2
            a = y.unbind(0)[0] if flag else y.chunk(2)[0]
            a.add_(1)
        pick(True)
    """)
    message = _message(snippet)
    assert "an output of split/chunk/unbind (or a view of one)" in message
    assert 'torch raises at once "... is a view and is being modified inplace.' in message
