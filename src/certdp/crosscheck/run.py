"""Run the three checks over the twins' grids: ``certdp.crosscheck(target, names, quick)``.

Per point: build it in the target (with ``"contrib"``; with ``"idealized-numerics"`` only if
the target refuses otherwise) and in certdp (the oracle, with contracts on so that the
proof's exact bound is at hand), compare the maps, search for a counterexample on the
target's own function, and test the target's noise.  Findings on a point the target built
under ``"idealized-numerics"`` are reported as :data:`IDEALIZED`, not as violations.
"""

from __future__ import annotations

import re
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace

from .findings import (
    CRASH,
    DEVIATION,
    IDEALIZED,
    SUSPECT,
    TIMEOUT,
    VIOLATION,
    Finding,
    TwinResult,
    fails,
)
from .twins import TWINS, Point

__all__ = ["CrosscheckReport", "crosscheck", "proof_of", "UnknownTwinError", "DEFAULT_TIMEOUT"]

#: Seconds one grid point (every call into the target for it) may take before it is abandoned.
DEFAULT_TIMEOUT = (
    600.0  # a whole grid point (up to ~4e5 noise draws on the full grid), not one call
)


class UnknownTwinError(Exception):
    """A name that is no registered twin."""


@dataclass
class CrosscheckReport:
    target: str
    quick: bool
    results: list = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""
    fail_on_suspect: bool = False

    @property
    def findings(self) -> list[Finding]:
        return [finding for result in self.results for finding in result.findings]

    @property
    def violations(self) -> list[Finding]:
        return [
            finding for finding in self.findings if fails(finding.severity, self.fail_on_suspect)
        ]

    @property
    def checked(self) -> bool:
        return any(result.checked for result in self.results)

    @property
    def unverified(self) -> list[str]:
        """The twins with status ``unchecked``: nothing built, or every pair unchecked."""
        return [result.twin for result in self.results if result.status() == "unchecked"]

    def exit_status(self) -> int:
        """1 on a failing finding; else 2 when the run, or one of its twins, verified nothing
        (an error, nothing built, a twin whose pairs were all unchecked); else 0."""
        if self.error or not self.checked:
            return 2
        if self.violations:
            return 1
        return 2 if self.unverified else 0


def proof_of(name: str) -> str:
    """The proof of certdp's constructor ``name``, relative to the package."""
    from certdp.audit.discovery import discover

    for folder in discover():
        if folder.name == name:
            return folder.relative(folder.proof)
    return ""


@contextmanager
def _oracle_mode():
    """certdp builds with contracts on, ``contrib`` and ``honest-but-curious`` on (the registry's
    postprocessing callbacks are honest) and ``idealized-numerics`` off (so that its maps are
    its proven ones); the previous state is restored."""
    from certdp.core import features, switches

    contracts, enabled = switches.contracts.enabled, set(features._enabled)
    switches.contracts.enabled = True
    features._enabled.discard("idealized-numerics")
    features._enabled.update(("contrib", "honest-but-curious"))
    try:
        yield
    finally:
        switches.contracts.enabled = contracts
        features._enabled.clear()
        features._enabled.update(enabled)


def _build_oracle(code: str):
    import certdp.prelude as certdp_dp

    from .target import namespace

    with _oracle_mode():
        try:
            return eval(code, namespace(certdp_dp)), ""  # registry code only
        except Exception as error:
            return None, f"{type(error).__name__}: {str(error).strip()[:160]}"


def _space(point: Point, oracle):
    import certdp.prelude as certdp_dp

    from .target import namespace

    if point.space:
        with _oracle_mode():
            return eval(point.space, namespace(certdp_dp))
    if oracle is not None:
        return oracle.input_domain, oracle.input_metric
    return None


def _severity(idealized: bool, severity: str) -> str:
    return IDEALIZED if idealized else severity


def _text(value) -> str:
    return repr(value) if not isinstance(value, str) else value


def _constructor(code: str) -> str:
    """The dotted constructor a point's code calls (``dp.t.make_clamp``), or ``""``."""
    found = re.match(r"\s*(dp(?:\.\w+)+)\(", code)
    if found:
        return found.group(1)
    found = re.match(r"\s*np_constructor\(dp,\s*[\"'](\w+)[\"']\)", code)
    return f"dp.numpy.{found.group(1)}" if found else ""


def _missing(target, twin, points) -> str:
    """The constructor the target lacks (its dotted name), or ``""``."""
    for point in points:
        name = _constructor(point.code)
        if not name or name.startswith("dp.numpy."):
            continue  # NumPy ones may live elsewhere (np_constructor finds them)
        value = target.dp
        for part in name.split(".")[1:]:
            value = getattr(value, part, None)
            if value is None:
                return name
    return ""


def _check_point(target, twin, point: Point, result: TwinResult, quick: bool) -> None:
    from . import reproducer
    from .coupling import FULL, QUICK, search_coupling
    from .mapcheck import compare_maps, rational_lower_bound
    from .noise import QUICK_SAMPLES, check_noise, sample_size
    from .search import search_pairs

    result.points += 1
    try:
        built, idealized = target.build(point.code)
    except Exception:
        return  # the target refuses the point: it claims nothing there
    result.built += 1
    oracle, refusal = _build_oracle(point.oracle_code)
    if twin.kind == "function":
        _compare_outputs(twin, point, result, built, oracle, refusal)
        return
    idealized_note = " (built only under idealized-numerics)" if idealized else ""
    if oracle is None:
        result.notes.append(f"certdp refuses {point.code}: {refusal}{idealized_note}")

    # 1. map check
    start = time.perf_counter()
    if point.alphas:  # OpenDP converts a returned curve only under these features
        with target.features("contrib", "honest-but-curious"):
            outcomes = compare_maps(point, built, oracle)
    else:
        outcomes = compare_maps(point, built, oracle)
    result.map_seconds += time.perf_counter() - start
    result.map_values += len(outcomes)
    for outcome in outcomes:
        if outcome.klass in result.map_classes:
            result.map_classes[outcome.klass] += 1
        else:
            result.map_unclassified += 1
    below = [outcome for outcome in outcomes if outcome.klass == "below"]
    if below:
        outcome = below[0]
        script = ""
        if outcome.exact is not None and not isinstance(outcome.target, tuple):
            lower = rational_lower_bound(outcome.exact)
            if lower is not None:
                script = reproducer.map_script(
                    target.name, point.code, idealized, outcome.d_in, str(outcome.exact), lower
                )
        result.findings.append(
            Finding(
                twin=twin.name,
                check="map",
                severity=_severity(idealized, SUSPECT),
                point=point.code,
                summary=f"map({outcome.d_in}) = {outcome.target!r} is below certdp's exact bound "
                f"{outcome.exact} for the same algorithm ({len(below)} of {len(outcomes)} "
                f"values){idealized_note}; no pair shows it",
                claimed=_text(outcome.target),
                actual=str(outcome.exact),
                d_in=repr(outcome.d_in),
                proof=result.proof,
                reproducer=script,
            )
        )

    # 2. counterexample search on the target's own function
    if point.search and twin.kind == "transformation":
        space = _space(point, oracle)
        if space is not None:
            if point.search == "coupling":
                size = int(re.search(r"size=(\d+)", point.code).group(1))
                found, details = search_coupling(built, space, size, quick)
            elif point.search == "record-space":
                from .record_space import search_record_space

                found = search_record_space(built, space, quick, oracle)
                details = found.details
            else:
                found = search_pairs(built, space, quick, 10 if quick else 25, oracle)
                details = found.details
            result.pairs += found.pairs - found.unchecked
            _unchecked(result, found)
            result.search_seconds += found.seconds
            if found.found is not None:
                _report_pair(
                    target,
                    twin,
                    point,
                    result,
                    built,
                    space,
                    idealized,
                    found,
                    details,
                    QUICK if quick else FULL,
                )

    # 2b. thresholded releases: a key of one side only is released with an exact probability
    if point.search == "lone-keys" and point.threshold:
        from .lone_keys import check_lone_keys, lone_key_script

        scale, threshold, noise = point.threshold
        lone = check_lone_keys(built, scale, threshold, noise)
        result.pairs += len(lone)
        # one finding for a lone key short of the threshold (the tail, OpenDP #2922) and one
        # for a lone key of value 0 (l1 = 0 with l0 > 0)
        for first in [pair for pair in lone if pair.d_in[2] > 0][:1] + [
            pair for pair in lone if pair.d_in[2] == 0
        ][:1]:
            result.findings.append(
                Finding(
                    twin=twin.name,
                    check="lone-keys",
                    severity=_severity(idealized, VIOLATION),
                    point=point.code,
                    summary=f"x = {first.x!r} and x' = {first.x_prime!r} are at distance "
                    f"{first.d_in}; the key is released with probability "
                    f"{float(first.exact):.6g} on x and never on x', but the target claims "
                    f"{first.claimed!r}{idealized_note}",
                    claimed=_text(first.claimed),
                    actual=str(first.exact),
                    d_in=repr(first.d_in),
                    x=repr(first.x),
                    x_prime=repr(first.x_prime),
                    proof=result.proof,
                    reproducer=lone_key_script(target.name, point.code, first),
                )
            )

    # 2c. bit vectors without a length: the output length tells neighbours apart (OpenDP #2930)
    if point.search == "bitvec-lengths":
        from .bitvec_lengths import check_lengths, lengths_script

        pair = check_lengths(built)
        result.pairs += 1
        if pair is not None:
            result.findings.append(
                Finding(
                    twin=twin.name,
                    check="lengths",
                    severity=_severity(idealized, VIOLATION),
                    point=point.code,
                    summary=f"x = {pair.x!r} and x' = {pair.x_prime!r} (weight 0, distance 1) "
                    f"are released with lengths {pair.lengths[0]} and {pair.lengths[1]} bytes: "
                    f"disjoint supports, max-divergence inf, but the target claims "
                    f"{pair.claimed!r}{idealized_note}",
                    claimed=_text(pair.claimed),
                    actual="inf",
                    d_in="1",
                    x=repr(pair.x),
                    x_prime=repr(pair.x_prime),
                    proof=result.proof,
                    reproducer=lengths_script(target.name, point.code, pair),
                )
            )

    # 2d. b-ary trees: a branch sum next to the type's limit, leaves spread over many branches
    if point.search == "b-ary-tree" and point.tree:
        from .coupling import FULL, QUICK
        from .tree_pairs import check_tree

        space = _space(point, oracle)
        if space is not None:
            tree_found, searched = check_tree(built, space, point.tree, point.d_ins)
            result.pairs += searched.pairs - searched.unchecked
            _unchecked(result, searched)
            for family, counterexample in tree_found:
                found = SimpleNamespace(found=counterexample)
                _report_pair(
                    target, twin, point, result, built, space, idealized, found, None,
                    QUICK if quick else FULL, check=f"tree-{family}",
                )  # fmt: skip

    # 2c. sums of squared deviations: one record flips the rounding of the mean (OpenDP #2923)
    if point.search == "mean-rounding" and point.records:
        from .mean_rounding import check_mean_rounding, mean_rounding_script

        lower, upper, size, T = point.records
        flipped = check_mean_rounding(built, lower, upper, size, T)
        result.pairs += 1
        if flipped is not None:
            result.findings.append(
                Finding(
                    twin=twin.name,
                    check="mean-rounding",
                    severity=_severity(idealized, VIOLATION),
                    point=point.code,
                    summary=f"x = ({flipped.x[0]!r},) * {size} and x' with one record "
                    f"{flipped.x_prime[0]!r} are at symmetric distance 2; the outputs differ by "
                    f"{float(flipped.actual)!r}, but the target claims {flipped.claimed!r}: one "
                    f"record flips the rounding of the mean{idealized_note}",
                    claimed=_text(flipped.claimed),
                    actual=str(flipped.actual),
                    d_in="2",
                    x=f"[{flipped.x[0]!r}] * {size}",
                    x_prime=f"[{flipped.x_prime[0]!r}] + [{flipped.x[0]!r}] * {size - 1}",
                    proof=result.proof,
                    reproducer=mean_rounding_script(target.name, point.code, flipped),
                )
            )

    # 3. noise
    if point.noise is not None:
        try:
            sampler, _ = target.build(point.noise.sampler)
        except Exception:
            sampler = None
        if sampler is not None:
            h = 1.0 if point.noise.k == 0 else 2.0**point.noise.k
            n = QUICK_SAMPLES if quick else sample_size(point.noise.kind, point.noise.scale, h)
            outcome = check_noise(sampler, point.noise, n)
            result.samples += outcome.samples
            result.noise_tests += len(outcome.p_values)
            result.noise_seconds += outcome.seconds
            if outcome.rejected:
                p_values = ", ".join(f"{k} p = {v:.3g}" for k, v in outcome.p_values.items())
                result.findings.append(
                    Finding(
                        twin=twin.name,
                        check="noise",
                        severity=_severity(idealized, DEVIATION),
                        point=point.noise.sampler,
                        summary=f"{point.noise.kind} noise (scale {point.noise.scale}, grid "
                        f"2^{point.noise.k}) rejects its exact distribution at alpha = 1e-6 "
                        f"over {n} draws: {p_values}",
                        proof=result.proof,
                        reproducer=reproducer.noise_script(target.name, point.noise, n),
                    )
                )


def _same_output(a, b) -> bool:
    """Equal lists of numbers, NaN equal to NaN (a Function's outputs, compared bit for bit up
    to the sign of zero)."""
    if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
        return False
    return all(x == y or (x != x and y != y) for x, y in zip(a, b))


def _compare_outputs(twin, point: Point, result: TwinResult, built, oracle, refusal) -> None:
    """A postprocessor twin: the target's Function and certdp's on each of ``point.inputs``;
    a violation names the first input whose outputs differ (or that one side refuses)."""
    if oracle is None:
        return
    for arg in point.inputs:
        try:
            target_out = built(arg)
        except Exception as error:
            target_out = f"refused: {type(error).__name__}"
        try:
            certdp_out = oracle(arg)
        except Exception as error:
            certdp_out = f"refused: {type(error).__name__}"
        if isinstance(target_out, str) or isinstance(certdp_out, str):
            if not (isinstance(target_out, str) and isinstance(certdp_out, str)):
                # a refusal claims nothing: noted, not a finding (OpenDP's f32 Function
                # refuses a list of Python floats, which it reads as Vec<f64>)
                result.notes.append(f"{point.code} on {arg!r}: target {target_out!r}, "
                                    f"certdp {certdp_out!r}")  # fmt: skip
            continue
        result.pairs += 1
        if not _same_output(target_out, certdp_out):
            result.findings.append(
                Finding(
                    twin=twin.name,
                    check="outputs",
                    severity=VIOLATION,
                    point=point.code,
                    summary=f"on {arg!r} the target returns {target_out!r}, certdp's proven "
                    f"Function {certdp_out!r}",
                    claimed=_text(target_out),
                    actual=_text(certdp_out),
                    x=repr(arg),
                    proof=result.proof,
                )
            )
            return


def _unchecked(result: TwinResult, found) -> None:
    """Add a search's unchecked pairs and their reasons to ``result``."""
    result.unchecked_pairs += found.unchecked
    for reason, count in (found.reasons or {}).items():
        result.unchecked_reasons[reason] = result.unchecked_reasons.get(reason, 0) + count


def _report_pair(
    target, twin, point, result, built, space, idealized, found, details, draws, check=None
):
    from . import reproducer
    from .search import show

    counterexample = found.found
    in_metric, out_metric = str(space[1]), str(built.output_metric)
    if counterexample.outside:
        from .search import own

        mine = own(counterexample)  # certdp's domain alone: exact, the target may round
        result.findings.append(
            Finding(
                twin=twin.name,
                check="domain",
                severity=_severity(idealized, VIOLATION if mine else SUSPECT),
                point=point.code,
                summary=f"the output {counterexample.actual} on x is outside "
                f"{counterexample.outside}"
                + ("" if mine else " (the target's own output domain admits it)")
                + (" (built only under idealized-numerics)" if idealized else ""),
                actual=str(counterexample.actual),
                x=reproducer.literal(counterexample.x),
                proof=result.proof,
                reproducer=reproducer.domain_script(
                    target.name, point.code, idealized, counterexample.x
                )
                if mine
                else "",
            )
        )
        return
    if details is None:
        script = reproducer.pair_script(
            target.name, point.code, idealized, counterexample.x, counterexample.x_prime,
            in_metric, out_metric, counterexample.d_in,
        )  # fmt: skip
        summary = (
            f"inputs at distance {counterexample.d_in} give outputs at distance "
            f"{show(counterexample.actual)}, more than the target's own map "
            f"{counterexample.claimed!r}"
        )
    else:
        script = reproducer.coupling_script(
            target.name, point.code, idealized, counterexample.x, counterexample.x_prime,
            in_metric, out_metric, draws,
        )  # fmt: skip
        summary = (
            f"inputs at distance {counterexample.d_in}: the target claims "
            f"{counterexample.claimed!r}, the exact coupling of its observed outputs gives "
            f"{counterexample.actual} ({details['far']} of {details['others']} outputs on x' are "
            f"further than the claim from every output on x: no coupling within it, error "
            f"probability <= 2e-6)"
        )
    result.findings.append(
        Finding(
            twin=twin.name,
            check=check or ("search" if details is None else "coupling"),
            severity=_severity(idealized, VIOLATION),
            point=point.code,
            summary=summary + (" (built only under idealized-numerics)" if idealized else ""),
            claimed=_text(counterexample.claimed),
            actual=str(counterexample.actual),
            d_in=repr(counterexample.d_in),
            x=reproducer.literal(counterexample.x),
            x_prime=reproducer.literal(counterexample.x_prime),
            proof=result.proof,
            reproducer=script,
        )
    )


def _selected(names):
    from .accuracy import ACCURACY

    if not names:
        return list(TWINS.values())
    names = [name for name in names if name != ACCURACY]  # not a twin: checked on its own
    unknown = [name for name in names if name not in TWINS]
    if unknown:
        raise UnknownTwinError(f"no twin registered for: {', '.join(unknown)}")
    return [TWINS[name] for name in names]


def _deadline(call, seconds: float):
    """Run ``call()`` in a daemon thread; ``("ok", None)``, ``("timeout", None)`` (abandoned:
    the thread is left behind) or ``("raised", exception)`` for any BaseException but a
    KeyboardInterrupt of the user's own (which propagates)."""
    import threading

    outcome: list = []

    def body():
        try:
            call()
            outcome.append(("ok", None))
        except BaseException as error:  # SystemExit from the target must not end the run
            outcome.append(("raised", error))

    thread = threading.Thread(target=body, daemon=True, name="crosscheck-point")
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        return "timeout", None
    return outcome[0] if outcome else ("raised", RuntimeError("the point ended without result"))


def _check_twin(target, name: str, quick: bool, timeout: float = DEFAULT_TIMEOUT) -> TwinResult:
    twin = TWINS[name]
    result = TwinResult(twin.name, proof=proof_of(twin.name))
    points = twin.points(quick)
    missing = _missing(target, twin, points)
    if missing:
        result.missing = missing
        result.points = len(points)
        result.notes.append(f"missing in target: {target.name} has no {missing}")
        return result
    for point in points:
        scratch = TwinResult(twin.name, proof=result.proof)

        def call(point=point, scratch=scratch):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the target's membership warnings
                _check_point(target, twin, point, scratch, quick)

        status, error = _deadline(call, timeout)
        if status == "timeout":
            result.points += 1
            result.findings.append(
                Finding(
                    twin=twin.name,
                    check="timeout",
                    severity=TIMEOUT,
                    point=point.code,
                    summary=f"a call into the target did not return within {timeout:g} s: the "
                    "point was abandoned unchecked (the twin's remaining points are skipped)",
                    proof=result.proof,
                )
            )
            break  # a target that blocks once may block on every point: do not wait again
        _merge(result, scratch)
        if status == "raised":
            if isinstance(error, Exception):  # a crash of the check itself: reported
                result.error = f"{type(error).__name__}: {error} (at {point.code})"
            else:  # SystemExit, GeneratorExit, ... raised by the target's code
                result.findings.append(
                    Finding(
                        twin=twin.name,
                        check="crash",
                        severity=CRASH,
                        point=point.code,
                        summary=f"the target raised {type(error).__name__}({error}) (a "
                        "BaseException that is no Exception): the point is unchecked",
                        proof=result.proof,
                    )
                )
    return result


def _merge(result: TwinResult, scratch: TwinResult) -> None:
    """Add one point's tallies (``scratch``) into the twin's ``result``."""
    for name in ("points", "built", "map_unclassified", "pairs", "map_values", "samples"):
        setattr(result, name, getattr(result, name) + getattr(scratch, name))
    result.unchecked_pairs += scratch.unchecked_pairs
    for reason, count in scratch.unchecked_reasons.items():
        result.unchecked_reasons[reason] = result.unchecked_reasons.get(reason, 0) + count
    for name in ("search_seconds", "map_seconds", "noise_seconds", "noise_tests"):
        setattr(result, name, getattr(result, name) + getattr(scratch, name))
    for klass, count in scratch.map_classes.items():
        result.map_classes[klass] = result.map_classes.get(klass, 0) + count
    result.notes += scratch.notes
    result.findings += scratch.findings
    if scratch.error:
        result.error = scratch.error


def _worker(target_name: str, name: str, quick: bool, timeout: float) -> TwinResult:
    """One twin in a worker process (which imports the target by name itself)."""
    from .target import load_target

    return _check_twin(load_target(target_name), name, quick, timeout)


def crosscheck(
    target,
    names=None,
    quick: bool = False,
    progress=None,
    jobs: int = 1,
    fail_on_suspect: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
):
    """Cross-check ``target`` (a module name like ``"opendp.prelude"``, or a module) against
    certdp, on the twins ``names`` (default: all), in ``jobs`` processes (each twin in one).
    ``progress(twin_name, result)`` is called after each twin.  Each grid point has ``timeout``
    seconds.  Returns a :class:`CrosscheckReport`; ``exit_status()`` is 0 (nothing failed), 1
    (a violation, a sampler deviation, a timeout or a crash of the target; also a suspect when
    ``fail_on_suspect``) or 2 (nothing could be checked)."""
    from .target import Target, TargetError, load_target

    start = time.perf_counter()
    if isinstance(target, str):
        try:
            target = load_target(target)
        except TargetError as error:
            return CrosscheckReport(
                str(target), quick, error=str(error), fail_on_suspect=fail_on_suspect
            )
    elif not isinstance(target, Target):
        target = Target(target.__name__, target)
    report = CrosscheckReport(target.name, quick, fail_on_suspect=fail_on_suspect)
    try:
        twins = _selected(names)
    except UnknownTwinError as error:
        report.error = str(error)
        return report
    by_name = {}
    if jobs > 1 and len(twins) > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(jobs) as pool:
            futures = {
                pool.submit(_worker, target.name, twin.name, quick, timeout): twin.name
                for twin in twins
            }
            for future in as_completed(futures):
                result = future.result()
                by_name[result.twin] = result
                if progress is not None:
                    progress(result.twin, result)
    else:
        for twin in twins:
            result = _check_twin(target, twin.name, quick, timeout)
            by_name[twin.name] = result
            if progress is not None:
                progress(twin.name, result)
    report.results = [by_name[twin.name] for twin in twins]
    if names and "accuracy" in names:  # the accuracy conversions, only when asked for by name
        from .accuracy import check_accuracy

        report.results.append(check_accuracy(target, quick))
        if progress is not None:
            progress("accuracy", report.results[-1])
    report.seconds = time.perf_counter() - start
    return report
