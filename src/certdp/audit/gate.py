"""The runtime consequence of the audit: unvetted proofs need ``contrib``.

A constructor whose proof is up to date with a vetting runs freely.  One whose
proof was never vetted, or changed since it was, runs only after
``dp.enable_features("contrib")``; otherwise the call raises
:class:`FeatureNotEnabledError` naming the constructor and the reason.
"""

from __future__ import annotations

from contextvars import ContextVar

from certdp.core.errors import FeatureNotEnabledError
from certdp.core.features import feature_enabled

from .status import UP_TO_DATE, CheapCheck, cheap_checks, covered_status, vetting_status

__all__ = ["require_vetted_or_contrib", "covering"]

# proof: begin gate
#: Constructors found up to date in this process (the check then costs one set lookup).
_up_to_date: set[str] = set()

#: The cheap check of the construction running in this context, if its gate found it up to
#: date by the cheap check in that very call (set by the wrapper of ``certified`` for the
#: time of the construction); ``None`` elsewhere.
covering: ContextVar[CheapCheck | None] = ContextVar("certdp_covering", default=None)


def require_vetted_or_contrib(name: str) -> CheapCheck | None:
    """Raise unless ``name``'s proof is vetted and up to date, or ``contrib`` is enabled.

    Inside a construction whose gate has just passed by the cheap check, a ``name`` that
    check covers (:func:`certdp.audit.status.covered_status`) passes on it: its files are
    among those that check found unchanged.  Returns the cheap check when this call itself
    found ``name`` up to date by it (for the wrapper to open), else ``None``."""
    if name in _up_to_date:  # label: cache-hit
        return None
    outer = covering.get()  # label: outer
    if outer is not None and covered_status(outer, name) is not None:  # label: covered
        _up_to_date.add(name)  # label: remember-covered
        return None
    noted: list = []
    collecting = cheap_checks.set(noted)  # label: collect
    try:
        status = vetting_status(name)  # label: status
    finally:
        cheap_checks.reset(collecting)  # label: collected
    if status.state == UP_TO_DATE:
        _up_to_date.add(name)  # label: remember
        return CheapCheck(*noted[0]) if noted else None  # label: cheap-check
    if feature_enabled("contrib"):  # label: contrib
        return None
    raise FeatureNotEnabledError(  # label: refuse
        f"{name} requires 'contrib' because its proof is {status}: call "
        f'dp.enable_features("contrib") to use it anyway, or have the proof vetted '
        f'(certdp vet {name} --by "Reviewer" --reviewed "what was reviewed")',
        parameter="features",
    )


# proof: end gate
