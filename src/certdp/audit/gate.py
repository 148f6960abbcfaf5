"""The runtime consequence of the audit: unvetted proofs need ``contrib``.

A constructor whose proof is up to date with a vetting runs freely.  One whose
proof was never vetted, or changed since it was, runs only after
``dp.enable_features("contrib")``; otherwise the call raises
:class:`FeatureNotEnabledError` naming the constructor and the reason.
"""

from __future__ import annotations

from certdp.core.errors import FeatureNotEnabledError
from certdp.core.features import feature_enabled

from .status import UP_TO_DATE, vetting_status

__all__ = ["require_vetted_or_contrib"]

# proof: begin gate
#: Constructors found up to date in this process (the check then costs one set lookup).
_up_to_date: set[str] = set()


def require_vetted_or_contrib(name: str) -> None:
    """Raise unless ``name``'s proof is vetted and up to date, or ``contrib`` is enabled."""
    if name in _up_to_date:  # label: cache-hit
        return
    status = vetting_status(name)  # label: status
    if status.state == UP_TO_DATE:
        _up_to_date.add(name)  # label: remember
        return
    if feature_enabled("contrib"):  # label: contrib
        return
    raise FeatureNotEnabledError(  # label: refuse
        f"{name} requires 'contrib' because its proof is {status}: call "
        f'dp.enable_features("contrib") to use it anyway, or have the proof vetted '
        f'(certdp vet {name} --by "Reviewer" --reviewed "what was reviewed")',
        parameter="features",
    )


# proof: end gate
