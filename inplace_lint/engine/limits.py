"""How large a file the engine lints: read by the lint itself and by what links a file with its program,
so that both decide alike. Light on purpose (the cached re-run imports it)."""

from __future__ import annotations

import os

from inplace_lint.model.findings import LintError

# Memory while linting grows with the file, about 450 bytes per character of the worst shapes (ast's
# tree, the selection's, LibCST's of what is kept): a 5 MB file of small functions took 2.4 GB and 30 s.
# (3.9 MB: 1.8 GB; the biggest file of torch is 1.4 MB.) Past the limit a file that could hold a finding
# is refused with one message (one that cannot, by the prefilter, is still answered at once).
DEFAULT_MAX_FILE_MB = 3
MAX_FILE_ENV = "INPLACE_LINT_MAX_FILE_MB"


def max_file_characters() -> int:
    """The size limit, in characters: $INPLACE_LINT_MAX_FILE_MB megabytes, else DEFAULT_MAX_FILE_MB."""
    raw = os.environ.get(MAX_FILE_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_FILE_MB * 1_000_000
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = 0.0
    if not megabytes > 0:  # NaN too
        raise LintError(f"cannot lint: {MAX_FILE_ENV} must be a positive number of megabytes, got {raw!r}")
    return int(min(megabytes, 1e9) * 1_000_000)
