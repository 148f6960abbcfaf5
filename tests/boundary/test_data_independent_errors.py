"""Invocation on in-domain data never raises (Definition "Data-independent errors").

For every certified constructor, hypothesis draws valid arguments and pairs of neighbouring
members of the input domain; invoking the built object on each member must answer.  An error
here would depend on the data, which no theorem of certdp allows.  A proof may weaken the item
to an error on a public property of the member (``Contract.raises_on``: make_noisy_max raises
on the empty vector, make_noisy_top_k on fewer than k scores, and members at a finite
L-infinity distance have the same length): there
the built object must raise a ``DPError`` exactly where the property holds, and the property
must agree on the two neighbours.  A postprocessor (a ``Function``) has no input domain or
neighbours: on every input its contract draws, it must answer.
"""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from certdp.contracts.contract import contract_of
from certdp.contracts.neighbours import distances, neighbours
from certdp.core.errors import DPError
from certdp.registry import certified_constructors


@pytest.mark.parametrize(
    "constructor", certified_constructors(), ids=lambda constructor: constructor.__name__
)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_invocation_on_members_never_raises(constructor, data):
    contract = contract_of(constructor)
    if contract.kind == "function":
        kwargs, arg = data.draw(contract.cases(), label="case")
        constructor(**kwargs)(arg)  # must not raise
        return
    arguments = contract.invocation_arguments or contract.arguments
    kwargs = data.draw(arguments(), label="arguments")
    try:
        built = constructor(**kwargs)
    except contract.refusals:
        assume(False)
    d_in = data.draw(distances(built.input_metric), label="d_in")
    x, x_prime = data.draw(neighbours(built.input_domain, built.input_metric, d_in, max_size=8))
    stated = contract.raises_on or (lambda member, kwargs: False)

    def raises_on(member):
        return stated(member, kwargs)

    assert raises_on(x) == raises_on(x_prime), "the weakened errors item names a private property"
    for member in (x, x_prime):
        assert built.input_domain.member(member)
        if raises_on(member):
            with pytest.raises(DPError):
                built(member)
        else:
            built(member)  # must not raise
