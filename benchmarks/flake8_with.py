"""Run flake8 with only some of its installed plugins, to measure what one plugin adds.

    python -m benchmarks.flake8_with PACKAGES -- FLAKE8-ARGS...

``PACKAGES`` is a comma-separated list of plugin distributions to keep (``inplace-lint``,
``flake8-bugbear``, ``pycodestyle``, ``pyflakes``), or ``none``. Every other plugin is left out of
flake8's plugin discovery (``flake8.plugins.finder.find_plugins``), so flake8 itself still reads,
tokenizes and ``ast``-parses every file exactly as in a normal run; the difference between a run with a
plugin and a run with ``none`` is that plugin's marginal cost, measured in one environment.
"""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--")
    keep = {p.strip().lower() for p in argv[0].split(",") if p.strip() and p.strip() != "none"}
    flake8_args = argv[split + 1:]

    import flake8.plugins.finder as finder
    from flake8.main import cli

    original = finder.find_plugins

    def find_plugins(cfg, opts):
        # flake8's own reporters (output formats) always stay
        return [p for p in original(cfg, opts) if p.package.lower() in keep or p.package.lower() == "flake8"]

    finder.find_plugins = find_plugins
    # a plugin asked for but not installed would be measured as costing nothing: refuse instead
    from importlib import metadata

    missing = []
    for package in sorted(keep):
        try:
            metadata.version(package)
        except metadata.PackageNotFoundError:
            missing.append(package)
    if missing:
        print(f"not installed: {', '.join(missing)} (pip install {' '.join(missing)})", file=sys.stderr)
        return 2
    return cli.main(flake8_args)


if __name__ == "__main__":
    raise SystemExit(main())
