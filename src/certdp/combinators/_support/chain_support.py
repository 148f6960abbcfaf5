"""Test-time strategies of the chaining contracts: built transformations (clamp, then a sum or
a count) and measurements whose own contracts compute exact divergences."""

from __future__ import annotations

from hypothesis import strategies as st

from certdp.contracts import contract_of

__all__ = ["clamps", "outer_transformations", "noise_after", "attach"]


def attach(constructor, **kwargs):
    """``constructor(**kwargs)``, remembering its arguments and contract (as the contracts of
    the inner objects need them)."""
    built = constructor(**kwargs)
    built.contract_arguments = kwargs
    built.contract = contract_of(constructor)
    return built


@st.composite
def clamps(draw):
    """A clamp of f64 or i32 vectors (symmetric or insert-delete distance) to small bounds."""
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance
    from certdp.transformations.clamp import make_clamp

    T = draw(st.sampled_from(["f64", "i32"]))
    atom = atom_domain(T=T, nan=False) if T == "f64" else atom_domain(T=T)
    metric = draw(st.sampled_from([symmetric_distance, insert_delete_distance]))()
    bounds = draw(st.sampled_from([(0, 10), (-5, 5), (0, 1)]))
    bounds = tuple(float(b) for b in bounds) if T == "f64" else bounds
    return attach(make_clamp, input_domain=vector_domain(atom), input_metric=metric, bounds=bounds)


def outer_transformations(inner) -> st.SearchStrategy:
    """Transformations that take ``inner``'s output: its sum, its count."""
    from certdp.transformations.count import make_count
    from certdp.transformations.sum import make_sum

    space = {"input_domain": inner.output_domain, "input_metric": inner.output_metric}
    return st.sampled_from([make_sum, make_count]).map(lambda make: attach(make, **space))


def noise_after(inner) -> st.SearchStrategy:
    """Laplace measurements that take ``inner``'s (numeric) output."""
    from certdp.measurements.laplace import make_laplace

    space = {"input_domain": inner.output_domain, "input_metric": inner.output_metric}
    scales = st.sampled_from([0.5, 1.0, 3.0, 10.0])
    return scales.map(lambda scale: attach(make_laplace, **space, scale=scale))
