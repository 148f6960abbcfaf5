"""``certdp prove``: bounded, bit-precise SMT proofs of each constructor's theorem.

For every constructor (and shared lemma) with an SMT model beside its code (``smt_model.py``),
z3 searches, at small sizes and with the bit-vector and IEEE floating-point theories, for a
pair of neighbouring datasets whose outputs are farther apart than the constructor's own map
allows.  :func:`results` returns, per name, ``status`` (``proved``, ``counterexample``,
``timeout`` or ``not-run``), ``detail``, ``sizes``, ``formats`` and ``solver_version``, from the
committed cache when the fingerprint of the model and of the code it models is unchanged.
"""

from __future__ import annotations

from .engine import CACHE, cached_results, fingerprint, known_constructors, prove

__all__ = ["results", "prove", "CACHE"]

_PUBLIC = ("status", "detail", "sizes", "formats", "solver_version")


def results(names=None, *, run: bool = False, **options) -> dict:
    """``{name: {status, detail, sizes, formats, solver_version}}`` for every modelled
    constructor or lemma.  A cached result counts only while its fingerprint matches the current
    model and code; otherwise the entry is ``not-run`` (stale), unless ``run`` proves it now."""
    if run:
        proved = prove(names, **options)
        return {name: {k: entry.get(k) for k in _PUBLIC} for name, entry in proved.items()}
    known = known_constructors()
    stored = cached_results()
    answer = {}
    for name in names or known:
        entry = stored.get(name)
        if name not in known:
            answer[name] = {"status": "not-run", "detail": "no SMT model", "sizes": [],
                            "formats": [], "solver_version": None}  # fmt: skip
        elif entry is None or entry.get("fingerprint") != fingerprint(name, known[name]):
            answer[name] = {
                "status": "not-run",
                "detail": "stale: the model or the code it models changed since the last "
                "`certdp prove`"
                if entry
                else "never proved",
                "sizes": entry.get("sizes", []) if entry else [],
                "formats": entry.get("formats", []) if entry else [],
                "solver_version": entry.get("solver_version") if entry else None,
            }
        else:
            answer[name] = {k: entry.get(k) for k in _PUBLIC}
    return answer
