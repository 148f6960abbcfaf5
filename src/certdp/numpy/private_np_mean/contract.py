"""Contract of ``make_private_np_mean``: the theorem of make_private_np_mean.tex, executable.

Bound: the noise's bound (Laplace for ``p = 1``, Gaussian for ``p = 2``, noise scale
``fl(scale * n)``) at the sum's bound (``make_np_sum``'s, on the clamped domain when ``norm``
is given).  The divergence checked for each pair of neighbours is that of the noisy sums
(exact, from the Laplace or Gaussian contract); the division by ``n`` is postprocessing, so the
mean's divergence is at most that.
"""

from __future__ import annotations

from types import SimpleNamespace

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract
from certdp.core.metrics import symmetric_distance
from certdp.measurements._gaussian.contract_support import (
    GAUSSIAN_BOUND,
    gaussian_divergence,
    gaussian_parameters,
)
from certdp.measurements._laplace.contract_support import (
    LAPLACE_BOUND,
    laplace_divergence,
    laplace_parameters,
)
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy._support.preconditions import INPUT_DOMAIN_ARRAY2, INPUT_METRIC_SYMMETRIC
from certdp.numpy.array2_domain import array2_domain
from certdp.numpy.np_clamp import make_np_clamp
from certdp.numpy.np_sum import make_np_sum
from certdp.numpy.np_sum.contract import BOUND as SUM_BOUND
from certdp.numpy.np_sum.contract import parameters as sum_parameters

from .make_private_np_mean import make_private_np_mean

#: 1 when the noise is Laplace (p = 1), 0 when it is Gaussian (p = 2).
LAPLACE = sympy.Symbol("laplace", nonnegative=True)

SYMBOL_MEANINGS = {
    "laplace": "1 when the rows are bounded in the :math:`L_1` norm (``p = 1``: Laplace noise,"
    " pure DP), 0 for :math:`L_2` (``p = 2``: Gaussian noise, zCDP); ``scale`` in the noise's"
    " bound is ``scale * n`` rounded to the nearest float"
}

BOUND = sympy.Piecewise(
    (LAPLACE_BOUND.subs(D_IN, SUM_BOUND), sympy.Eq(LAPLACE, 1)),
    (GAUSSIAN_BOUND.subs(D_IN, SUM_BOUND), True),
)


def _summed(args):
    """The sum the constructor chains, rebuilt from the arguments: ``(the sum, its input
    domain, the chain from the input domain to the sums)``."""
    if args.norm is None:
        summed = make_np_sum(args.input_domain, args.input_metric)
        return summed, args.input_domain, summed
    p = 2 if args.p is None else args.p  # the constructor's default with norm
    clamp = make_np_clamp(args.input_domain, args.input_metric, args.norm, p, args.origin)
    summed = make_np_sum(*clamp.output_space)
    return summed, clamp.output_domain, clamp >> summed


def _noise_arguments(args, summed):
    scale = float(args.scale * args.input_domain.size)
    return SimpleNamespace(input_domain=summed.output_domain, scale=scale, k=None)


def parameters(args, built) -> dict:
    summed, sum_domain, _ = _summed(args)
    found = dict(sum_parameters(SimpleNamespace(input_domain=sum_domain), summed))
    noise = _noise_arguments(args, summed)
    laplace = sum_domain.p == 1
    found.update(laplace_parameters(noise, None) if laplace else gaussian_parameters(noise, None))
    found[LAPLACE] = int(laplace)
    return found


def divergence(built, kwargs, x, x_prime):
    args = SimpleNamespace(**({"norm": None, "p": None, "origin": None} | kwargs))
    summed, sum_domain, chain = _summed(args)
    noise = vars(_noise_arguments(args, summed))
    sums = chain(x), chain(x_prime)
    of = laplace_divergence if sum_domain.p == 1 else gaussian_divergence
    return of(None, noise, *sums)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 3))
    size = draw(st.integers(1, 5))
    p = draw(st.sampled_from([1, 2]))
    scale = draw(st.sampled_from([0.5, 1.0, 3.0, 10.0]))
    if draw(st.booleans()):
        domain = array2_domain(T=T, size=size, num_columns=k, nan=draw(st.booleans()))
        norm = draw(st.sampled_from([0.5, 1.0, 4.0]))
        return {"input_domain": domain, "input_metric": symmetric_distance(), "scale": scale,
                "norm": norm, "p": p}  # fmt: skip
    domain = array2_domain(norm=draw(st.sampled_from([0.5, 1.0, 4.0])), p=p, T=T, size=size,
                           num_columns=k)  # fmt: skip
    return {"input_domain": domain, "input_metric": symmetric_distance(), "scale": scale, "p": p}


CONTRACT = MeasurementContract(
    constructor=make_private_np_mean,
    preconditions=[
        INPUT_DOMAIN_ARRAY2,
        INPUT_METRIC_SYMMETRIC,
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    divergence=divergence,
)
