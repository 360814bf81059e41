"""``python -m inplace_lint`` runs the ``inplace-lint`` command."""

import sys

from inplace_lint.adapters.cli import main

if __name__ == "__main__":
    sys.exit(main())
