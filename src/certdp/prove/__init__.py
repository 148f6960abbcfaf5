"""``certdp prove``: bounded SMT proofs of each constructor's theorem.

For every constructor (and shared lemma) with an SMT model beside its code (``smt_model.py``),
the solvers search for a counterexample to its theorem at bounded instances, with the map value
taken from the real constructor.  What each check covers differs (the formats, the sizes, which
parts are bit-precise, which only in a reduced format, which are exact-real abstractions, which
functions are free, what is assumed): each model declares it in ``SCOPE``
(:class:`certdp.contracts.smt_code.Scope`), which :func:`scope` returns.  :func:`results` returns, per name, ``status`` (``proved``, ``counterexample``,
``timeout`` or ``not-run``), ``detail``, ``sizes``, ``formats`` and ``solver_version``, from the
committed cache when the fingerprint of the model and of the code it models is unchanged.
"""

from __future__ import annotations

import importlib

from .engine import CACHE, MODELS, cached_results, fingerprint, prove, with_requirements

__all__ = ["results", "prove", "scope", "CACHE"]

_PUBLIC = ("status", "detail", "sizes", "formats", "solver_version")


def _present_models() -> dict[str, str]:
    """``{name: model module}`` for the models whose modules this package holds (a package
    with a subset of the constructors still reads the results of those it has)."""
    known = {}
    for module in MODELS:
        try:
            modelled = importlib.import_module(module).MODELLED
        except ModuleNotFoundError:
            continue
        known.update(dict.fromkeys(modelled, module))
    return known


def scope(name: str):
    """The :class:`~certdp.contracts.smt_code.Scope` the model of ``name`` declares (what its
    machine check covers: formats, sizes, bit-precise parts, abstractions, free functions), or
    ``None`` when no model of ``name`` is present."""
    module = _present_models().get(name)
    if module is None:
        return None
    return importlib.import_module(module).SCOPE[name]


def results(names=None, *, run: bool = False, **options) -> dict:
    """``{name: {status, detail, sizes, formats, solver_version}}`` for every modelled
    constructor or lemma.  A cached result counts only while its fingerprint matches the current
    model and code; otherwise the entry is ``not-run`` (stale), unless ``run`` proves it now."""
    if run:
        proved = prove(names, **options)
        return {name: {k: entry.get(k) for k in _PUBLIC} for name, entry in proved.items()}
    known = _present_models()
    stored = cached_results()
    own = {}

    def final(name):
        if name not in own:
            own[name] = _own_result(name, known, stored)
            if own[name]["status"] == "proved" and name in known:
                own[name] = with_requirements(name, own[name], final)
        return own[name]

    return {name: {k: final(name).get(k) for k in _PUBLIC} for name in names or known}


def _own_result(name, known, stored) -> dict:
    """The cached result of ``name``'s own obligations, or ``not-run`` when none is current."""
    entry = stored.get(name)
    if name not in known:
        return {"status": "not-run", "detail": "no SMT model", "sizes": [], "formats": [],
                "solver_version": None}  # fmt: skip
    if entry is None or entry.get("fingerprint") != fingerprint(name, known[name]):
        return {
            "status": "not-run",
            "detail": "stale: the model or the code it models changed since the last `certdp prove`"
            if entry
            else "never proved",
            "sizes": entry.get("sizes", []) if entry else [],
            "formats": entry.get("formats", []) if entry else [],
            "solver_version": entry.get("solver_version") if entry else None,
        }
    return {k: entry.get(k) for k in _PUBLIC}
