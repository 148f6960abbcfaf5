"""The CSV histogram pipeline of issue #21 (split_dataframe >> select_column >> cast >>
impute_constant >> clamp >> count_by_categories) gives OpenDP 0.16's counts on the PUMS sample,
whichever fast path each step takes (untrimmed or flat split, text table, comprehension)."""

import pytest

import certdp.prelude as dp

from .frame_cases import PUMS_COLUMNS, pums_text


@pytest.fixture(autouse=True)
def _contrib():
    # The steps changed for speed are outdated until the lead vets them again.
    dp.enable_features("contrib")


def _counts(text, column, bounds, categories, separator=","):
    pipeline = dp.t.make_split_dataframe(separator, PUMS_COLUMNS) >> dp.t.make_select_column(
        column, str
    )
    pipeline = pipeline >> dp.t.then_cast(int) >> dp.t.then_impute_constant(0)
    pipeline = pipeline >> dp.t.then_clamp(bounds)
    return (pipeline >> dp.t.then_count_by_categories(categories=categories))(text)


# OpenDP 0.16.0: the same pipeline (opendp.prelude, contrib) on the PUMS sample, educ column,
# categories 0..16 (the last count is the null category).
EDUC = [0, 33, 14, 38, 17, 24, 21, 31, 51, 201, 60, 165, 76, 178, 54, 24, 13, 0]
# OpenDP 0.16.0: the income column clamped to (0, 200000), categories [0, 10000, 200000, 50000].
INCOME = [124, 11, 19, 11, 835]
# OpenDP 0.16.0: the educ counts after lines 6, 8 and 10 became "1,2" (short), a line with "x7"
# as educ (no integer) and "1,2,  ,3" (a blank field): three more nulls imputed to 0.
EDUC_HOSTILE = [3, 33, 14, 38, 17, 24, 21, 31, 51, 200, 60, 164, 76, 177, 54, 24, 13, 0]


def test_the_pums_histogram_gives_opendps_counts():
    assert _counts(pums_text(), "educ", (0, 16), list(range(17))) == EDUC
    assert _counts(pums_text(), "income", (0, 200_000), [0, 10000, 200000, 50000]) == INCOME


@pytest.mark.parametrize(
    ("variant", "separator"),
    [
        (lambda text: text.replace("\n", "\r\n"), ","),  # trimmed path (a carriage return)
        (lambda text: text.replace(",", " , "), ","),  # trimmed path (spaces)
        (lambda text: text.replace(",", ";"), ";"),  # flat split, another separator
        (lambda text: text.replace(",", ";;"), ";;"),  # untrimmed, two-character separator
        (lambda text: text.rstrip("\n"), ","),  # no final line break
    ],
)
def test_every_path_of_the_split_gives_the_same_counts(variant, separator):
    # OpenDP 0.16.0 gives EDUC on the first three variants (checked while writing this test).
    assert _counts(variant(pums_text()), "educ", (0, 16), list(range(17)), separator) == EDUC


def test_repeated_and_hostile_lines_give_opendps_counts():
    assert _counts(pums_text() * 3, "educ", (0, 16), list(range(17))) == [3 * c for c in EDUC]
    lines = pums_text().splitlines()
    lines[5], lines[7], lines[9] = "1,2", "1,2,x7,3,4,5,6,7", "1,2,  ,3"
    assert _counts("\n".join(lines), "educ", (0, 16), list(range(17))) == EDUC_HOSTILE
