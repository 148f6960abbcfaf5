"""``dp.examples``: paths of the example data sets OpenDP's documentation reads.

The data ship inside the package (never downloaded), so the same calls work offline and from an
installed wheel.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["get_california_pums_path"]


def get_california_pums_path() -> Path:
    """The path of a 1,000-row public-use microdata sample of California (US Census Bureau,
    public domain): a CSV without a header row whose columns are age, sex, educ, race, income
    and married, as in OpenDP 0.16."""
    return Path(__file__).resolve().parent / "california_pums.csv"
