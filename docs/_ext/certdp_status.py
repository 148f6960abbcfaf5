"""A constructor's audit status, as the audit tool reports it, in one line of reST.

The audit tool (``certdp.audit.status.vetting_status(name)``) may not exist yet in a tree; then
every constructor reads "not audited yet".  Any other failure of the tool is not hidden.
"""

from __future__ import annotations

import importlib

from certdp_rst import escape

__all__ = ["NOT_AUDITED", "audit_tool", "status_line"]

NOT_AUDITED = "not audited yet"


def audit_tool():
    """The ``vetting_status`` function of ``certdp.audit.status``, or ``None`` if absent."""
    try:
        module = importlib.import_module("certdp.audit.status")
    except ModuleNotFoundError as error:
        if error.name in ("certdp.audit.status", "certdp.audit"):
            return None
        raise
    return module.vetting_status


def status_line(name: str, brief: bool = False) -> str:
    """The audit status of constructor ``name``: state, then commit, reviewer and date if known
    (``brief``: commit and date only, for a table)."""
    vetting_status = audit_tool()
    if vetting_status is None:
        return NOT_AUDITED
    status = vetting_status(name)
    state = str(status.state)
    fields = [
        ("at commit", _literal(getattr(status, "commit", None))),
        ("by", None if brief else _text(getattr(status, "reviewer", None))),
        ("on", _text(getattr(status, "date", None))),
    ]
    details = [f"{label} {value}" for label, value in fields if value]
    if not details:
        return f"**{escape(state)}**"
    vetted = "last vetted" if state == "outdated" else "vetted"
    reviewed = None if brief else _text(getattr(status, "reviewed", None))
    what = f"; reviewed: {reviewed}" if reviewed else ""
    return f"**{escape(state)}** ({vetted} {' '.join(details)}{what})"


def _text(value) -> str | None:
    return escape(str(value)) if value else None


def _literal(commit) -> str | None:
    return f"``{commit}``" if commit else None
