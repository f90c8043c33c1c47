"""Run every ``benchmarks/bench_*.py`` and print a Markdown table for the README.

Each benchmark reports its time and the time of a plain baseline measured in the
same process, so the ratio holds whatever machine runs it.
"""

from __future__ import annotations

import importlib
import pathlib
import platform
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import HEADER  # noqa: E402


def main() -> None:
    names = sorted(p.stem for p in (ROOT / "benchmarks").glob("bench_*.py"))
    selected = sys.argv[1:] or names
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or ''}"
    )
    print(HEADER)
    for name in selected:
        module = importlib.import_module(f"benchmarks.{name}")
        for row in module.run():
            print(row.markdown(), flush=True)


if __name__ == "__main__":
    main()
