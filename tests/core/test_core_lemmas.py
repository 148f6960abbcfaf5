"""The core model (domains, transformations, partial constructors, the FP probe, the boundary)
is proven by its lemma documents: none of its definitions is in a constructor's trusted base."""

from __future__ import annotations

from certdp.audit.closure import ProofIndex, closure
from certdp.audit.discovery import discover

CORE_LEMMAS = {
    "certdp.core.domains": "core/domains.tex",
    "certdp.core.transformation": "core/transformation.tex",
    "certdp.core.partial": "core/transformation.tex",
    "certdp.core.fpenv": "core/fpenv.tex",
    "certdp.core.conversion": "core/conversion.tex",
    "certdp.core.admission": "core/conversion.tex",
    "certdp.core.queryable": "core/queryable.tex",
    "certdp.core.map_domain": "core/map_domain.tex",
    "certdp.core.partition_metrics": "core/partition_metrics.tex",
}


def test_no_core_model_definition_is_trusted_by_any_constructor():
    constructors = discover()
    index = ProofIndex(constructors[0].package)
    reached = set()
    for constructor in constructors:
        for definition in closure(constructor, index):
            module = definition.name.rsplit(".", 1)[0]
            if module in CORE_LEMMAS:
                reached.add(module)
                assert CORE_LEMMAS[module] in definition.proven_by, (
                    f"{definition.name} (used by {constructor.name}) is not proven by "
                    f"{CORE_LEMMAS[module]}"
                )
    assert reached == set(CORE_LEMMAS)  # the test looked at every one of these modules
