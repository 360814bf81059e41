"""The package's version, in the layer everything may import (the cache's fingerprint, SARIF, --version)."""

__version__ = "0.1.0"
