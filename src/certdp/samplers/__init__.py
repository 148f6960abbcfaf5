"""Exact samplers, driven by the operating system's CSPRNG.

Each module holds one sampler, or a helper several samplers share (``distinct``), beside
the ``.tex`` lemma that proves it: for a sampler, the distribution it draws from, exactly (no
floating-point number enters the noise).
"""

from .bernoulli import bernoulli_ratio, sample_bernoulli_rational
from .bernoulli_exp import bernoulli_exp_at_most_one, bernoulli_exp_ratio, sample_bernoulli_exp
from .discrete_gaussian import (
    discrete_gaussian_batch_sampler,
    discrete_gaussian_sampler,
    sample_discrete_gaussian,
)
from .discrete_gaussian_z2k import discrete_gaussian_Z2k_sampler, sample_discrete_gaussian_Z2k
from .discrete_laplace import (
    discrete_laplace_batch_sampler,
    discrete_laplace_sampler,
    sample_discrete_laplace,
)
from .discrete_laplace_z2k import (
    discrete_laplace_Z2k_sampler,
    grid_point_to_float,
    nearest_grid_index,
    sample_discrete_laplace_Z2k,
)
from .discrete_laplace_z2k_batch import discrete_laplace_Z2k_batch_sampler
from .exp_digits import exp_neg_digits, exp_neg_enclosure
from .geometric import (
    geometric_batch_by_inversion,
    geometric_by_inversion,
    geometric_by_trials,
    geometric_exp_sampler,
    geometric_refine,
    sample_geometric_exp,
    threshold_table,
)
from .uniform import EntropySource, entropy_source, sample_uniform_below, sample_uniform_bits

__all__ = [
    "discrete_laplace_Z2k_batch_sampler",
    "EntropySource",
    "entropy_source",
    "sample_uniform_bits",
    "sample_uniform_below",
    "bernoulli_ratio",
    "sample_bernoulli_rational",
    "bernoulli_exp_at_most_one",
    "bernoulli_exp_ratio",
    "sample_bernoulli_exp",
    "exp_neg_enclosure",
    "exp_neg_digits",
    "threshold_table",
    "geometric_by_inversion",
    "geometric_refine",
    "geometric_batch_by_inversion",
    "geometric_by_trials",
    "geometric_exp_sampler",
    "sample_geometric_exp",
    "discrete_laplace_sampler",
    "discrete_laplace_batch_sampler",
    "sample_discrete_laplace",
    "nearest_grid_index",
    "grid_point_to_float",
    "discrete_laplace_Z2k_sampler",
    "sample_discrete_laplace_Z2k",
    "discrete_gaussian_sampler",
    "discrete_gaussian_batch_sampler",
    "sample_discrete_gaussian",
    "discrete_gaussian_Z2k_sampler",
    "sample_discrete_gaussian_Z2k",
]
