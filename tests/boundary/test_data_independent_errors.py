"""Invocation on in-domain data never raises (Definition "Data-independent errors").

For every certified constructor, hypothesis draws valid arguments and pairs of neighbouring
members of the input domain; invoking the built object on each member must answer.  An error
here would depend on the data, which no theorem of certdp allows.
"""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from certdp.contracts.contract import contract_of
from certdp.contracts.neighbours import distances, neighbours
from certdp.registry import certified_constructors


@pytest.mark.parametrize(
    "constructor", certified_constructors(), ids=lambda constructor: constructor.__name__
)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_invocation_on_members_never_raises(constructor, data):
    contract = contract_of(constructor)
    kwargs = data.draw(contract.arguments(), label="arguments")
    try:
        built = constructor(**kwargs)
    except contract.refusals:
        assume(False)
    d_in = data.draw(distances(built.input_metric), label="d_in")
    x, x_prime = data.draw(neighbours(built.input_domain, built.input_metric, d_in, max_size=8))
    for member in (x, x_prime):
        assert built.input_domain.member(member)
        built(member)  # must not raise
