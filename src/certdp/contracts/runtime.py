"""Turning runtime contract enforcement on and off (off by default).

The environment variable ``CERTDP_CONTRACTS=1`` turns it on at import time.
"""

from __future__ import annotations

import os

from certdp.core import switches

__all__ = ["enable_contracts", "disable_contracts", "contracts_enabled"]


def enable_contracts() -> None:
    """Check preconditions, output domains and map bounds on every call from now on."""
    switches.contracts.enabled = True


def disable_contracts() -> None:
    """Stop runtime contract checks (the default)."""
    switches.contracts.enabled = False


def contracts_enabled() -> bool:
    return switches.contracts.enabled


if os.environ.get("CERTDP_CONTRACTS", "").strip().lower() in {"1", "true", "yes", "on"}:
    enable_contracts()
