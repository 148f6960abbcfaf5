"""Shared inputs of the dataframe-step tests: the PUMS text and a small hostile text."""

from certdp.examples import get_california_pums_path

PUMS_COLUMNS = ["age", "sex", "educ", "race", "income", "married"]


def pums_text() -> str:
    return get_california_pums_path().read_text()


#: Ragged lines, an empty line, CRLF, padding white space, a quoted field with the separator.
HOSTILE = '1, x ,2\n\n3\n4,5,6,7\r\n a,b\n"p,q",r\n'
