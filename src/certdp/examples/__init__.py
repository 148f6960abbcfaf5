"""``dp.examples``: paths of the example data sets OpenDP's documentation reads.

The data ship inside the package (never downloaded), so the same calls work offline and from an
installed wheel.  A data set certdp does not ship raises :class:`ExampleDataNotShippedError`
(a ``DPError`` and a ``FileNotFoundError``) saying why, instead of fetching it.
"""

from __future__ import annotations

from pathlib import Path

from certdp.core.errors import DPError

__all__ = ["get_california_pums_path", "get_france_lfs_path", "ExampleDataNotShippedError"]


class ExampleDataNotShippedError(DPError, FileNotFoundError):
    """An example data set OpenDP's documentation reads that certdp does not ship."""

    variant = "ExampleDataNotShipped"


def get_california_pums_path() -> Path:
    """The path of a 1,000-row public-use microdata sample of California (US Census Bureau,
    public domain): a CSV without a header row whose columns are age, sex, educ, race, income
    and married, as in OpenDP 0.16."""
    return Path(__file__).resolve().parent / "california_pums.csv"


def get_france_lfs_path() -> Path:
    """OpenDP 0.16 returns the path of a sample of the EU Labour Force Survey for France
    (``V2_FR_LFS.csv`` of opendp/dp-test-datasets), downloading it on first use.  certdp never
    downloads, and no public copy of that sample was supplied to ship with it, so this raises
    :class:`ExampleDataNotShippedError`.  The OpenDP examples that read it build Polars
    LazyFrame queries, which certdp does not build either."""
    raise ExampleDataNotShippedError(
        "the France Labour Force Survey sample (opendp/dp-test-datasets, V2_FR_LFS.csv) is not "
        "shipped with certdp: certdp never downloads data and no public copy of the sample was "
        "supplied to ship; the OpenDP examples that read it use Polars LazyFrames, which "
        "certdp does not build. Use dp.examples.get_california_pums_path(), or pass the path "
        "of your own copy of the file to your reader"
    )
