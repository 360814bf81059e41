"""Write docs/rules/<CODE>.md from each rule module's docstring: ``python -m inplace_lint.rules [DIR]``."""

import sys
from pathlib import Path

from inplace_lint.rules import RULES


def render(rule) -> str:
    return f"# {rule.code}: {rule.name}\n\n{rule.summary}.\n\n{rule.doc}\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "rules"
    out.mkdir(parents=True, exist_ok=True)
    for rule in RULES.values():
        (out / f"{rule.code}.md").write_text(render(rule), encoding="utf-8")
    print(f"wrote {len(RULES)} rule pages to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
