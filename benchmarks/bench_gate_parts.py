"""Where the vetting gate's first-call time goes: a CPU-time breakdown, part by part.

Run: ``python benchmarks/bench_gate_parts.py [--repeats R]``.  Each number is the median CPU
time (``process_time``) of ``R`` in-process repeats of one part of the gate's cheap path
(:func:`certdp.audit.status.runtime_status_of` on an up-to-date constructor), with the files
in the page cache; a fresh process pays them once per process (the ledger and the listing)
or once per constructor it calls (the rest).  The last table counts, over the constructors of
``bench_startup.py``, how many file checks the gates of one process make and how many
distinct files they are: the repeated work that only sharing checks between constructors
could remove.  Re-vet the constructors first (``certdp vet NAME --by dev --reviewed x
--uncommitted``) so that the cheap path is the one measured; an outdated constructor is
reported as such and left out.  With ``--current-files`` the files and fingerprints are
those of the tree as it is (no ledger entry is read), so a branch whose rows are outdated
is measured doing the same work without being vetted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_startup import FIRST_CALLS  # noqa: E402

from certdp.audit import ledger, shadowing  # noqa: E402
from certdp.audit.discovery import constructor_named, constructor_names, package_root  # noqa: E402


def cpu_ms(function, repeats: int) -> float:
    """Median CPU time of ``function()`` over ``repeats`` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument(
        "--current-files",
        action="store_true",
        help="take each constructor's files and fingerprints as they are now "
        "(proof_fingerprints) instead of its ledger entry: measures the same work on a "
        "branch whose rows are outdated, without vetting; the seal column is then 0",
    )
    arguments = parser.parse_args()
    repeats, current = arguments.repeats, arguments.current_files
    one, five, _ = os.getloadavg()
    print(f"bench_gate_parts: median CPU ms of {repeats} repeats; load {one:.2f} / {five:.2f}")
    package = package_root().resolve()
    print("\nonce per process")
    print(f"  read_ledger (decode + check every entry)  {cpu_ms(lambda: ledger.read_ledger(package), repeats):7.2f}")  # fmt: skip
    print(f"  constructor_names (listing)               {cpu_ms(lambda: constructor_names(package), repeats):7.2f}")  # fmt: skip
    entries, names = ledger.read_ledger(package), constructor_names(package)

    print("\nonce per constructor (cheap path)")
    print(f"  {'constructor':40s} {'seal':>6s} {'bytes':>6s} {'shadow':>6s} {'sum':>6s}  files")
    checks, distinct, shadow_checks, shadow_distinct = 0, set(), 0, set()
    for name in FIRST_CALLS:
        constructor = constructor_named(package, name, names)
        vetting = entries.get(constructor.key) if constructor else None
        if current and constructor is not None:
            files: dict[str, str] = {}
            fingerprints, proof = ledger.proof_fingerprints(constructor, files)
            vetting = ledger.Vetting(fingerprints, proof, "", "", files=files)
        if vetting is None or not vetting.files:
            print(f"  {name:40s} not vetted with file hashes: left out")
            continue
        if not ledger.files_unchanged(constructor, vetting.files):
            print(f"  {name:40s} outdated (a file changed since vetting): left out")
            continue
        keys = ledger.fingerprinted_files(vetting.fingerprints)
        seal = 0.0 if current else cpu_ms(partial(ledger.files_seal, vetting.fingerprints, vetting.proof, vetting.files), repeats)  # fmt: skip
        same = cpu_ms(partial(ledger.files_unchanged, constructor, vetting.files), repeats)
        shadow = cpu_ms(partial(shadowing.shadowing_files, constructor.package, keys), repeats)
        total = seal + same + shadow
        print(f"  {name:40s} {seal:6.2f} {same:6.2f} {shadow:6.2f} {total:6.2f}  {len(vetting.files)}")  # fmt: skip
        checks += len(vetting.files)
        distinct |= set(vetting.files.items())
        shadow_checks += len(keys)
        shadow_distinct |= set(keys)

    print("\nrepeated work over these constructors in one process")
    print(f"  file byte checks {checks}, distinct (file, digest) {len(distinct)}")
    print(f"  shadowing checks {shadow_checks}, distinct files {len(shadow_distinct)}")


if __name__ == "__main__":
    main()
