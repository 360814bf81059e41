"""Generators of adversarial source shapes: one construct repeated ``n`` times, inside a function that has
an in-place hazard, so that every stage (the prefilter, the selection, ast, LibCST, the analysis) sees it.

Each shape maps ``n`` to the text of a whole file. tests/test_reliability.py lints each at two sizes and
asserts the work grows at most linearly (or the file is refused at once with one message).
"""

from __future__ import annotations

from typing import Callable, Dict

HEAD = "import torch\n\n\ndef fn(a, c):\n    b = a ** 2\n    b *= b\n"
TAIL = "    return b\n"


def _body(lines) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + TAIL


def _joined(separator: str, term: str = "a") -> Callable[[int], str]:
    return lambda n: _body([f"d = {separator.join([term] * n)}", "d *= 2"])


SHAPES: Dict[str, Callable[[int], str]] = {
    # binary operators nest one level per term in both ast and LibCST
    "plus_chain": _joined(" + "),
    "matmul_chain": _joined(" @ "),
    "power_chain": _joined(" ** "),  # right-associative
    "bitor_chain": _joined(" | "),
    "boolean_chain": _joined(" and "),  # flat in ast, nested in LibCST
    "comparison_chain": _joined(" < "),
    "string_concatenation": lambda n: _body(["d = " + " ".join(['"x"'] * n)]),
    "unary_chain": lambda n: _body([f"d = {'-' * n}a", "d *= 2"]),
    "call_chain": lambda n: _body(["d = a" + ".add(1)" * n, "d *= 2"]),
    "attribute_chain": lambda n: _body(["d = a" + ".T" * n, "d *= 2"]),
    "subscript_chain": lambda n: _body(["d = a" + "[0]" * n, "d *= 2"]),
    "wide_call": lambda n: _body([f"d = torch.cat([{', '.join(['a'] * n)}])", "d *= 2"]),
    "wide_tuple_assignment": lambda n: _body(
        [f"{', '.join(f'v{i}' for i in range(n))} = {', '.join(['a'] * n)}", "v0 *= 2"]
    ),
    "chained_assignment": lambda n: _body([" = ".join(f"v{i}" for i in range(n)) + " = a * 2", "v0 *= 2"]),
    "alias_chain": lambda n: _body(["v0 = a * 2"] + [f"v{i + 1} = v{i}" for i in range(n)] + [f"v{n} += 1"]),
    "inplace_sequence": lambda n: _body(["d = a.exp()"] + ["d.add_(1)"] * n),
    "saved_then_written": lambda n: _body(
        [line for i in range(n) for line in (f"e{i} = a.exp()", f"f{i} = e{i} * c", f"e{i}.add_(1)")]
    ),
    "elif_ladder": lambda n: _body(
        ["if c == 0:", "    d = a * 2"]
        + [line for i in range(1, n) for line in (f"elif c == {i}:", "    d = a * 2")]
        + ["d *= 2"]
    ),
    "loop_of_writes": lambda n: _body(
        ["for i in range(3):"] + [f"    v{i} = b * {i}\n        b.add_(1)" for i in range(n)]
    ),
    "many_functions": lambda n: "import torch\n"
    + "".join(f"\ndef fn{i}(a):\n    b = a ** 2\n    b *= b\n    return b\n" for i in range(n)),
    "many_lambdas": lambda n: _body([f"g{i} = lambda x: x * {i}" for i in range(n)]),
    "nested_comprehension": lambda n: _body(
        ["d = [x0 " + " ".join(f"for x{i} in range(2)" for i in range(n)) + "]"]
    ),
}


def shape(name: str, n: int) -> str:
    return SHAPES[name](n)
