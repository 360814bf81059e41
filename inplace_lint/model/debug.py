"""The one debug switch: ``INPLACE_LINT_DEBUG=1`` in the environment makes an internal error raise where
it would otherwise cost only time, a unit's findings or a fix (the analysis, the selection, the first
look, fix planning). Read as ``debug.DEBUG`` where the error is caught, so that a test setting it
(``monkeypatch.setattr(debug, "DEBUG", True)``) takes effect everywhere at once."""

from __future__ import annotations

import os

DEBUG = os.environ.get("INPLACE_LINT_DEBUG") == "1"
