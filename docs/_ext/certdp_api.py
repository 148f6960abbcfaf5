"""Sphinx extension: how the API reference presents certdp's classes.

* Members a public class inherits from a private base of certdp (``Transformation`` and
  ``Measurement`` share ``map``, ``check`` and calling through ``_Mapped``) are documented on
  the public class, and the private base is not shown among its bases.
* The operators a user writes (``t(x)``, ``t >> then_x(...)``, ``space >> then_x(...)``) are
  documented as members.  Where the code gives one no docstring of its own, the text below is
  used; a docstring written in the code always wins.
"""

from __future__ import annotations

import inspect

__all__ = ["OPERATORS", "OPERATOR_TEXT", "autodoc_options", "setup"]

#: The special members documented wherever a class defines or inherits them.
OPERATORS = ("__call__", "__rshift__", "__rrshift__")

#: Member text used when the code has none, by ``Class.member``.
OPERATOR_TEXT = {
    "Transformation.__call__": (
        "``t(arg)`` is ``t.invoke(arg)``: check that ``arg`` is a member of the input domain "
        "(:class:`FailedFunctionError` if not, without echoing the data), then apply the "
        "function."
    ),
    "Measurement.__call__": (
        "``m(arg)`` is ``m.invoke(arg)``: check that ``arg`` is a member of the input domain, "
        "then release a noisy answer.  Every call draws fresh noise and spends privacy again."
    ),
    "Transformation.__rshift__": (
        "``t >> other``: the chain that applies ``t`` and then ``other``.  ``other`` is a "
        "transformation, a measurement, or a partial constructor ``then_<name>(...)``, which is "
        "first built on ``t``'s output domain and metric.  The chain's function is "
        "``other(t(x))`` and its map is ``other.map(t.map(d_in))``; it is a measurement if "
        "``other`` is one.  A mismatch of ``t``'s output domain or metric with ``other``'s input "
        "is refused with :class:`DomainMismatchError` or :class:`MetricMismatchError`.  A "
        "measurement ends a chain: it has no ``>>``."
    ),
    "PartialConstructor.__rrshift__": (
        "``(input_domain, input_metric) >> then_<name>(...)`` calls "
        "``make_<name>(input_domain, input_metric, ...)``; ``t >> then_<name>(...)`` builds it on "
        "``t``'s output space and chains it after ``t``."
    ),
    "PartialConstructor.__call__": (
        "``then_<name>(...)(input_domain, input_metric)`` calls "
        "``make_<name>(input_domain, input_metric, ...)``."
    ),
    "Transformation.stability_map": (
        "The stability map as a function: ``t.stability_map(d_in)`` is ``t.map(d_in)``."
    ),
    "Measurement.privacy_map": (
        "The privacy map as a function: ``m.privacy_map(d_in)`` is ``m.map(d_in)``."
    ),
}

#: Members that are machinery, not API.
HIDDEN = {"postcondition"}


def _private_certdp_bases(cls) -> list[type]:
    return [
        base
        for base in cls.__mro__[1:]
        if base.__name__.startswith("_") and base.__module__.startswith("certdp")
    ]


def autodoc_options(cls) -> list[str]:
    """The ``autoclass`` options for ``cls`` beyond ``:members:`` and ``:show-inheritance:``."""
    options = []
    if _private_certdp_bases(cls):
        options.append(":inherited-members:")
    operators = [name for name in OPERATORS if _defines(cls, name)]
    if operators:
        options.append(f":special-members: {', '.join(operators)}")
    hidden = sorted(name for name in HIDDEN if hasattr(cls, name))
    if hidden:
        options.append(f":exclude-members: {', '.join(hidden)}")
    return options


def _defines(cls, name: str) -> bool:
    """Does ``cls`` or a certdp base define ``name`` (not merely ``object`` or ``type``)?"""
    return any(name in vars(base) for base in cls.__mro__ if base.__module__.startswith("certdp"))


def _key(name: str) -> str:
    """``Class.member`` from a dotted autodoc name."""
    return ".".join(name.split(".")[-2:])


def _own_docstring(obj) -> str | None:
    target = obj.fget if isinstance(obj, property) else obj
    return getattr(target, "__doc__", None)


def choose_members(app, what, name, obj, skip, options):
    """Keep the members :data:`OPERATOR_TEXT` describes even when the code leaves them
    undocumented; leave out undocumented properties."""
    requested = getattr(options, "special_members", None) or ()
    if name in OPERATORS and name in requested:
        return False
    if name in ("stability_map", "privacy_map"):
        return False
    if isinstance(obj, property) and not _own_docstring(obj):
        return True  # autodoc would show a docstring borrowed from the value's builtin type
    return None


def supply_operator_text(app, what, name, obj, options, lines):
    text = OPERATOR_TEXT.get(_key(name))
    if text is None or _own_docstring(obj):
        return
    lines[:] = [text, ""]


def hide_private_bases(app, name, obj, options, bases):
    if inspect.isclass(obj):
        bases[:] = [b for b in bases if not b.__name__.startswith("_")] or [object]


def setup(app):
    app.connect("autodoc-skip-member", choose_members)
    app.connect("autodoc-process-docstring", supply_operator_text)
    app.connect("autodoc-process-bases", hide_private_bases)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
