"""What a cross-check finds: severities, findings and the per-twin tallies.

A finding is something a person should look at; everything else a check saw is counted in
:class:`TwinResult` (how many map values were equal, more conservative, ...).  These
severities fail a run (exit status 1): a :data:`VIOLATION` (a concrete pair of neighbouring
inputs on which the target's own function moves further than the target's own map allows, for
a randomised transformation a pair whose outputs admit no coupling within it, or an input whose
output is outside the declared output domain), a :data:`DEVIATION` (a sampler whose output
rejects its exact distribution at alpha = 1e-6), a :data:`TIMEOUT` and a :data:`CRASH` (a target
call that blocked past the deadline or raised SystemExit-like exceptions); a :data:`SUSPECT`
fails it only when asked (``fail_on_suspect``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

__all__ = [
    "VIOLATION",
    "SUSPECT",
    "DEVIATION",
    "IDEALIZED",
    "TIMEOUT",
    "CRASH",
    "SEVERITIES",
    "MAP_CLASSES",
    "Finding",
    "TwinResult",
    "fails",
]

#: A concrete counterexample to the target's own claim: a pair exceeding its map, or an input
#: whose output is outside the target's own (or certdp's twin's) output domain.
VIOLATION = "violation"
#: A call into the target that did not return within the per-point deadline (abandoned).
TIMEOUT = "timeout"
#: A call into the target that raised a BaseException that is no Exception (SystemExit, ...).
CRASH = "crash"
#: The target's sampler rejects its exact distribution (chi-square, KS or scale test).
DEVIATION = "deviation"
#: The target's map is below certdp's exact bound for the same algorithm: no pair shows it.
#: On a measurement this is an under-reported privacy loss that needs review; it fails the run
#: only with ``fail_on_suspect`` (``--fail-on-suspect``).
SUSPECT = "suspect"
#: Found on an object the target builds only under "idealized-numerics", whose maps knowingly
#: assume exact arithmetic: what that flag gives up, not a bug.
IDEALIZED = "idealized"

SEVERITIES = (VIOLATION, DEVIATION, CRASH, TIMEOUT, SUSPECT, IDEALIZED)

#: The map check's classes, in the order the table shows them.
MAP_CLASSES = ("equal", "conservative", "tighter", "below")


def fails(severity: str, fail_on_suspect: bool = False) -> bool:
    """Does a finding of this severity fail the run?"""
    return severity in (VIOLATION, DEVIATION, CRASH, TIMEOUT) or (
        fail_on_suspect and severity == SUSPECT
    )


@dataclass
class Finding:
    """One thing the cross-check found on one point of one twin's grid."""

    twin: str
    check: str  # "map", "search", "coupling" or "noise"
    severity: str
    point: str  # the target's constructor call, in its own API
    summary: str
    claimed: str = ""
    actual: str = ""
    d_in: str = ""
    x: str = ""
    x_prime: str = ""
    proof: str = ""  # the certdp proof giving the exact bound (relative to the package)
    reproducer: str = ""  # a script in the target's own API; exits non-zero when it reproduces

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class TwinResult:
    """Everything the checks saw for one twin (one certdp constructor)."""

    twin: str
    proof: str = ""
    points: int = 0
    built: int = 0  # points the target built
    map_classes: dict = field(default_factory=lambda: dict.fromkeys(MAP_CLASSES, 0))
    map_unclassified: int = 0  # map values certdp has no exact bound for (it refuses the point)
    # pairs checked: by the pair and coupling searches, those the target ran and whose map
    # value was compared (the others are unchecked_pairs); by the special families (tree,
    # lone keys, lengths, mean rounding), the pairs they ran
    pairs: int = 0
    search_seconds: float = 0.0
    map_values: int = 0
    map_seconds: float = 0.0
    samples: int = 0
    noise_tests: int = 0
    noise_seconds: float = 0.0
    notes: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    error: str = ""
    missing: str = ""  # the target has no such constructor (its dotted name)
    unchecked_pairs: int = 0  # pairs tried but not checked: never counted as passing
    unchecked_reasons: dict = field(default_factory=dict)  # why, with how many pairs each

    @property
    def checked(self) -> bool:
        return self.built > 0

    def status(self) -> str:
        if self.error:
            return "error"
        if self.missing:
            return "missing in target"
        if not self.checked:
            return "unchecked"
        severities = {finding.severity for finding in self.findings}
        for severity in SEVERITIES:
            if severity in severities:
                return severity
        if self.unchecked_pairs and not self.pairs:  # every pair tried had no claim: none passed
            return "unchecked"
        return "ok"

    @property
    def verified(self) -> bool:
        """Was anything checked and passed (status ``ok``) or found?  ``False`` for a twin with
        nothing built or whose pairs were all unchecked (status ``unchecked``), an error, or a
        constructor missing in the target."""
        return self.status() not in ("unchecked", "error", "missing in target")

    def to_dict(self) -> dict:
        data = asdict(self)
        data["status"] = self.status()
        data["findings"] = [finding.to_dict() for finding in self.findings]
        return data
