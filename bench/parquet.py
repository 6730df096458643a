"""The Parquet export and Dask at scale (issue 21, items 6 to 8).

On one large file (the file of ``bench/archive.py``: ``--unique`` generated
games written again and again up to ``--games``; a million by default, about
750 MB, kept in the cache folder), each command in a fresh process, with its
peak resident memory (the largest process's, for a cluster: its workers are
processes of the command) and its time:

- ``lcn lint`` (the yardstick) and ``lcn export --to parquet`` in one
  process, and the export's throughput against lint's;
- ``lcn import --from parquet`` of that export, compared byte for byte with
  the file;
- ``lcn export``, ``lcn lint`` and ``lcn stats`` with ``--scheduler
  local:N`` (a LocalCluster of N worker processes, two by default) against
  the same command in one process.

Nothing is asserted: the figures are printed::

    python bench/parquet.py                    # 1,000,000 games
    python bench/parquet.py --games 20000      # quicker
    python bench/parquet.py --skip dask --skip stats   # lint, export, import
    python bench/parquet.py --games 200000 --skip import
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from archive import make_file  # noqa: E402  (bench/archive.py: the same file)

ROWS: List[Tuple[str, str, List[str]]] = [
    # (name, what it is measured against, arguments of lcn)
    ("lint", "", ["lint", "--no-progress", "-q", "{file}"]),
    ("export", "lint", ["export", "--to", "parquet", "{file}", "-o", "{export}"]),
    ("import", "", ["import", "--from", "parquet", "{export}", "-o", "{back}"]),
    ("dask export", "export", ["export", "--to", "parquet", "{file}", "-o", "{export2}",
                               "--scheduler", "local:{workers}"]),
    ("dask lint", "lint", ["lint", "--no-progress", "-q", "{file}", "--scheduler",
                           "local:{workers}"]),
    ("stats", "", ["stats", "--format", "json", "{file}"]),
    ("dask stats", "stats", ["stats", "--format", "json", "{file}", "--scheduler",
                             "local:{workers}"]),
]


def run(argv: List[str]) -> Tuple[float, float, int]:
    """Run ``lcn argv``; its peak resident memory (MB), wall time (s) and status."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "lcnotation", *argv],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss / 1024, time.perf_counter() - start, os.waitstatus_to_exitcode(status)


def main(argv: Optional[List[str]] = None) -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--games", type=int, default=1_000_000)
    options.add_argument("--unique", type=int, default=20_000,
                         help="different games in the file (the rest repeat them)")
    options.add_argument("--workers", type=int, default=2, help="worker processes of Dask")
    options.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    options.add_argument("--only", help="run only the rows whose name contains this")
    options.add_argument("--skip", action="append", default=[],
                         help="skip the rows whose name contains this (repeatable)")
    args = options.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    source = cache / f"archive-{args.games}-{args.unique}.lcn"
    if not source.exists():
        partial = source.with_suffix(".partial")
        make_file(partial, args.games, args.unique)
        partial.rename(source)
    size = source.stat().st_size / 1e6
    places = {"file": str(source), "export": str(cache / "parquet-export"),
              "export2": str(cache / "parquet-export-dask"), "back": str(cache / "parquet-back.lcn"),
              "workers": str(args.workers)}
    for name in ("export", "export2"):
        shutil.rmtree(places[name], ignore_errors=True)
    print(f"{source}: {args.games:,} games, {size:.0f} MB; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}; Dask: {args.workers} local workers")
    print(f"{'lcn ...':<14} {'peak MB':>8} {'seconds':>8} {'games/s':>9} {'MB/s':>6} "
          f"{'status':>6}  against")
    timings: Dict[str, float] = {}
    for name, against, template in ROWS:
        if (args.only and args.only not in name) or any(s in name for s in args.skip):
            continue
        if name == "import" and not os.path.isdir(places["export"]):
            continue
        peak, elapsed, status = run([a.format(**places) for a in template])
        timings[name] = elapsed
        compared = ""
        if against in timings:
            compared = f"{timings[against] / elapsed:.2f}x the throughput of lcn {against}"
        if name == "import":
            same = filecmp.cmp(places["back"], str(source), shallow=False)
            compared = f"byte for byte: {'the same file' if same else 'DIFFERENT'}"
        print(f"{name:<14} {peak:>8.0f} {elapsed:>8.1f} {args.games / elapsed:>9,.0f} "
              f"{size / elapsed:>6.1f} {status:>6}  {compared}", flush=True)
    for name in ("export", "export2"):
        folder = Path(places[name])
        if folder.is_dir():
            mb = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6
            print(f"{folder}: {mb:.0f} MB of Parquet")
            shutil.rmtree(folder)
    Path(places["back"]).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
