"""Write tests/sums/opendp_seed_reference.json: what the seed notebook's sum cells print and
plot under OpenDP 0.16.

Run with a Python that has ``opendp==0.16`` installed (certdp is not imported)::

    /tmp/odp/bin/python tests/sums/generate_opendp_seed_reference.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["RUST_BACKTRACE"] = "0"
sys.path.insert(0, str(Path(__file__).parent))

from seed_sum_cells import FLOAT_CELLS, INTEGER_CELLS, run_cells  # noqa: E402

OUTPUT = Path(__file__).with_name("opendp_seed_reference.json")


def main() -> int:
    results = run_cells("opendp", ["3", "sum", "4", "5", *FLOAT_CELLS, "3b", "18"])
    assert set(results) == set(INTEGER_CELLS) | set(FLOAT_CELLS)
    OUTPUT.write_text(json.dumps(results, separators=(",", ":")) + "\n")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
