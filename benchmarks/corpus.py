"""Real-world Python sources for benchmarks and corpus runs, fetched from PyPI into a cache folder.

    python -m benchmarks.corpus [NAME ...]     # download + unpack, print the folders and line counts

Each package is fetched with ``pip download --no-deps`` (a wheel, else the sdist) and unpacked under
``benchmarks/.cache/<name>/``. Nothing here imports or runs the fetched code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List, Optional

CACHE = Path(os.environ.get("INPLACE_LINT_CORPUS_CACHE", Path(__file__).resolve().parent / ".cache"))
# Any recent release does for source; pins keep runs comparable.
PACKAGES: Dict[str, str] = {
    "transformers": "transformers==4.46.3",
    "timm": "timm==1.0.11",
    "torchvision": "torchvision==0.20.1",
}


def fetch(name: str, spec: Optional[str] = None) -> Path:
    """The unpacked source folder of one package (downloaded on first use)."""
    target = CACHE / name
    marker = target / ".unpacked"
    if marker.exists():
        return target
    download = CACHE / "_downloads" / name
    download.mkdir(parents=True, exist_ok=True)
    spec = spec or PACKAGES.get(name, name)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(download), spec],
        check=True,
    )
    archives = sorted(download.iterdir())
    if not archives:
        raise RuntimeError(f"pip downloaded nothing for {spec}")
    target.mkdir(parents=True, exist_ok=True)
    for archive in archives:
        _unpack(archive, target)
    marker.write_text(spec)
    return target


def _unpack(archive: Path, target: Path) -> None:
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as z:
            for member in z.namelist():
                if member.endswith(".py"):
                    z.extract(member, target)
    elif archive.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive) as t:
            members = [m for m in t.getmembers() if m.isfile() and m.name.endswith(".py")]
            t.extractall(target, members=members, filter="data")


def python_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*.py")):
        if path.is_file() and not path.is_symlink():
            yield path


def stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def torch_sources() -> Optional[Path]:
    """The installed torch package's Python sources (read as text, never imported)."""
    for entry in sys.path:
        candidate = Path(entry) / "torch"
        if (candidate / "__init__.py").exists():
            return candidate
    return None


def count_lines(paths: List[Path]) -> int:
    total = 0
    for path in paths:
        try:
            with open(path, "rb") as f:
                total += sum(1 for _ in f)
        except OSError:
            pass
    return total


def main(argv=None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or list(PACKAGES)
    for name in names:
        root = fetch(name)
        files = list(python_files(root))
        print(f"{name}: {root} ({len(files)} files, {count_lines(files)} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
