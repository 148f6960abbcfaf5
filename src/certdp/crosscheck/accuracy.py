"""The accuracy conversions of the target against certdp's (``certdp crosscheck T accuracy``).

No constructor is built: each grid point calls one of the eight ``dp.*_scale_to_accuracy`` /
``dp.accuracy_to_*_scale`` functions in the target and in certdp.  certdp's accuracy is the
least float its lemma (``measurements/_accuracy/accuracy.tex``) shows to hold, and its scale the
largest; a target's value on the other side of it (a smaller accuracy, a larger scale) claims
more than certdp shows to hold and is a :data:`SUSPECT` finding (classed ``below``, as a map
under certdp's bound); a value on certdp's side is ``conservative``.  Where certdp's check is
exact that means beyond what holds; where it is a conservative formula or bound (the discrete
Laplace scale is the boundary of the closed formula, not of the true tail; the discrete
Gaussian above scale 64) it means beyond that formula, and the target's value may still hold.
"""

from __future__ import annotations

import math
import time

from .findings import SUSPECT, Finding, TwinResult

__all__ = ["ACCURACY", "FUNCTIONS", "check_accuracy", "accuracy_points"]

#: The name of this check on the command line and in the report.
ACCURACY = "accuracy"
PROOF = "measurements/_accuracy/accuracy.tex"
FUNCTIONS = (
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
)


def accuracy_points(quick: bool) -> list[tuple[str, float, float]]:
    """``(function, value, alpha)``: scales and accuracies from tiny to large, levels from 0.5
    to the smallest subnormal (the quick grid is a subset)."""
    values = [1.0, 3.7, 100.0] if quick else [1e-5, 0.1, 1.0, 3.7, 10.0, 100.0, 1e6]
    alphas = [0.05, 1e-10] if quick else [0.5, 0.05, 0.01, 1e-6, 1e-10, 1e-300, 5e-324]
    return [(name, value, alpha) for name in FUNCTIONS for value in values for alpha in alphas]


def check_accuracy(target, quick: bool = False) -> TwinResult:
    """Compare every point; one result for the eight functions."""
    import certdp.prelude as ours
    from certdp.core.features import disable_features, enable_features, feature_enabled

    result = TwinResult(ACCURACY, proof=PROOF)
    had_contrib = feature_enabled("contrib")
    enable_features("contrib")  # the comparison runs whether or not the lemma is vetted yet
    start = time.perf_counter()
    try:
        for name, value, alpha in accuracy_points(quick):
            result.points += 1
            call = f"dp.{name}({value!r}, {alpha!r})"
            function = getattr(target.dp, name, None)
            if function is None:
                result.missing = f"{target.name}.{name}"
                continue
            try:
                theirs = float(function(value, alpha))
            except Exception as error:  # the target refuses the point: nothing to compare
                result.notes.append(f"{call}: {type(error).__name__}")
                continue
            result.built += 1
            mine = getattr(ours, name)(value, alpha)
            result.map_values += 1
            _classify(
                result, name, call, mine, theirs, _is_boundary(ours, name, value, alpha, mine)
            )
    finally:
        result.map_seconds = time.perf_counter() - start
        if not had_contrib:
            disable_features("contrib")
    return result


def _is_boundary(ours, name: str, value: float, alpha: float, mine: float) -> bool:
    """Is certdp's value the boundary of what holds (so that beyond it nothing does)? Not where
    the discrete Gaussian uses its bound by the continuous one (scales above 64) or OpenDP's cap
    at the continuous Gaussian's scale: there a value beyond certdp's may still hold."""
    if name == "discrete_gaussian_scale_to_accuracy":
        return value <= 64
    if name == "accuracy_to_discrete_gaussian_scale":
        return mine < 64 and mine != ours.accuracy_to_gaussian_scale(value, alpha)
    return True


def _classify(result, name: str, call: str, mine: float, theirs: float, boundary: bool) -> None:
    is_scale = name.startswith("accuracy_to")
    if theirs == mine:
        result.map_classes["equal"] += 1
        return
    unsafe = math.isnan(theirs) or (theirs > mine if is_scale else theirs < mine)
    if not unsafe:
        result.map_classes["conservative"] += 1
        return
    if not boundary:  # beyond certdp's conservative bound, not shown to fail
        result.map_classes["tighter"] += 1
        return
    result.map_classes["below"] += 1
    what = "scale above the largest" if is_scale else "accuracy below the least"
    result.findings.append(
        Finding(
            twin=ACCURACY,
            check="map",
            severity=SUSPECT,
            point=call,
            summary=f"{what} value certdp shows to hold",
            claimed=repr(theirs),
            actual=repr(mine),
            proof=PROOF,
        )
    )
