"""Regression tests from the referee of the casts branch: every Unicode text casts without
raising (the float grammar once case-folded the Turkish dotless and dotted i onto ``i``, and
``float()`` then raised an untyped ValueError), and the casts give what OpenDP 0.16 gives."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.types import ALL_TYPES, carrier
from certdp.transformations._cast.convert import convert

#: Texts that Unicode-aware IGNORECASE would let through ``(?i:inf|infinity|nan)``
#: (U+0130 and U+0131 case-fold-match ``i``) and which Rust's float grammar rejects.
TURKISH_I = ["\u0131nf", "\u0130nf", "-\u0131nfinity", "+INF\u0130NITY", "\u0130nf\u0131n\u0131ty"]

CASTS = (dp.t.make_cast, dp.t.make_cast_default, dp.t.make_cast_inherent)
FLOAT_TYPES = ("f32", "f64")


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _strings():
    return dp.vector_domain(dp.atom_domain(T=str))


@pytest.mark.parametrize("TOA", FLOAT_TYPES)
def test_convert_raises_nothing_on_dotless_i(TOA):
    for text in TURKISH_I:
        assert convert(text, carrier("String"), carrier(TOA)) is None, text


@pytest.mark.parametrize("TOA", FLOAT_TYPES)
def test_cast_default_dotless_i_gives_default(TOA):
    t = dp.t.make_cast_default(_strings(), dp.symmetric_distance(), TOA=TOA)
    assert t(TURKISH_I + ["inf"]) == [0.0] * len(TURKISH_I) + [math.inf]


def test_cast_dotless_i_gives_none():
    t = dp.t.make_cast(_strings(), dp.symmetric_distance(), TOA="f32")
    assert t(TURKISH_I + ["inf"]) == [None] * len(TURKISH_I) + [math.inf]


def test_cast_inherent_dotless_i_gives_nan():
    out = dp.t.make_cast_inherent(_strings(), dp.symmetric_distance(), TOA="f64")(TURKISH_I)
    assert len(out) == len(TURKISH_I) and all(math.isnan(v) for v in out)


def test_cast_matches_opendp_on_dotless_i_live():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.t.make_cast_default(
        odp.vector_domain(odp.atom_domain(T=str)), odp.symmetric_distance(), TOA="f64"
    )(TURKISH_I)
    ours = dp.t.make_cast_default(_strings(), dp.symmetric_distance(), TOA="f64")(TURKISH_I)
    assert ours == theirs


#: Letters that Unicode case folding (not ASCII's) relates to a letter of inf/infinity/nan.
_FOLDS = {"i": "\u0130\u0131", "n": "\uff4e", "f": "\ufb00", "a": "\u0430", "t": "", "y": ""}


@st.composite
def _near_words(draw):
    """A sign, then inf, infinity or nan with each letter in either ASCII case or one of its
    Unicode relatives: texts on both sides of the grammar's edge."""
    word = draw(st.sampled_from(["inf", "infinity", "nan"]))
    letters = [draw(st.sampled_from([c, c.upper(), *_FOLDS[c]])) for c in word]
    return draw(st.sampled_from(["", "+", "-"])) + "".join(letters)


#: Any Unicode text; texts of lone surrogates, Unicode spaces, digits and numerals (which
#: ``int``/``float`` would read) mixed with ASCII digits and signs; near-misses of the words.
_TEXTS = st.one_of(
    st.text(st.characters(exclude_categories=())),
    st.text(st.characters(categories=["Cs", "Zs", "Nd", "Nl", "No"], include_characters="+-.e1")),
    _near_words(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXTS, max_size=4))
def test_no_text_makes_any_cast_raise(texts):
    """Any list of Unicode texts is cast by every cast to every carrier type, and each result
    is None or a value of TOA."""
    for TOA in ALL_TYPES:
        target = carrier(TOA)
        for text in texts:
            c = convert(text, carrier("String"), target)
            assert c is None or target.contains(c), (text, TOA, c)
        for make in CASTS:
            if make is dp.t.make_cast_inherent and TOA not in FLOAT_TYPES:
                continue
            out = make(_strings(), dp.symmetric_distance(), TOA=TOA)(texts)
            assert len(out) == len(texts)
