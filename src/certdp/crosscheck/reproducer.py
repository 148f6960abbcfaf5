"""Minimal reproducer scripts, in the target's own API only.

Each script imports the target (never certdp), builds the object with the point's own code,
prints what the target claims and what actually happens, and exits 1 when the finding
reproduces (0 when it does not).  Distances are computed exactly with ``fractions``.
"""

from __future__ import annotations

import math

import numpy as np

from .target import NUMPY_CONSTRUCTOR_SOURCE

__all__ = ["pair_script", "coupling_script", "map_script", "literal"]

_DISTANCES = """\
from collections import Counter
from fractions import Fraction


def key(record):
    return (type(record).__name__, repr(record))


def lines(data):
    # a text is the dataset of its lines, as Rust's str::lines reads them (a "\\r" right
    # before a "\\n" dropped, the final line ending optional); any other dataset is itself
    if not isinstance(data, str):
        return data
    pieces = data.split("\\n")
    last = pieces.pop()
    return [p[:-1] if p.endswith("\\r") else p for p in pieces] + ([last] if last else [])


def symmetric(a, b):
    ca, cb = Counter(map(key, lines(a))), Counter(map(key, lines(b)))
    return sum(abs(ca[k] - cb[k]) for k in ca.keys() | cb.keys())


def insert_delete(a, b):
    a, b = list(map(key, lines(a))), list(map(key, lines(b)))
    row = [0] * (len(b) + 1)
    for u in a:
        new = [0]
        for j, v in enumerate(b):
            new.append(row[j] + 1 if u == v else max(row[j + 1], new[j]))
        row = new
    return len(a) + len(b) - 2 * row[-1]


def hamming(a, b):
    if len(a) != len(b):
        return float("inf")
    return sum(key(u) != key(v) for u, v in zip(a, b))


def change_one(a, b):
    if len(a) != len(b):
        return float("inf")
    return Fraction(symmetric(a, b), 2)


def show(value):
    try:
        return repr(float(value))
    except OverflowError:  # beyond the largest float: print it in decimal
        from decimal import Decimal, localcontext

        with localcontext() as context:
            context.prec = 17
            return str(Decimal(value.numerator) / Decimal(value.denominator))


def exact(value):
    return Fraction(float(value)) if not isinstance(value, int) else Fraction(value)


def absolute(a, b):
    return abs(exact(a) - exact(b))


def l1(a, b):
    if len(a) != len(b):
        return float("inf")
    return sum((abs(exact(u) - exact(v)) for u, v in zip(a, b)), Fraction(0))


def l2_squared(a, b):
    if len(a) != len(b):
        return float("inf")
    return sum(((exact(u) - exact(v)) ** 2 for u, v in zip(a, b)), Fraction(0))
"""


def literal(value) -> str:
    """Python source for a dataset: lists of ints/floats/bools/strings, NumPy arrays."""
    if isinstance(value, np.ndarray):
        dtype = value.dtype.name
        return f"np.array({literal(value.tolist())}, dtype=np.{dtype})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else 'float("-inf")'
    return repr(value)


def _script(target: str, idealized: bool, body: str) -> str:
    """The script: imports (NumPy only when the body uses it), distances, features, body."""
    features = '"contrib", "honest-but-curious"' + (', "idealized-numerics"' if idealized else "")
    numpy = "np." in body
    return (
        "import sys\n\n"
        + ("import numpy as np\n\n" if numpy else "")
        + f"import {target} as dp\n\n"
        + (f"{NUMPY_CONSTRUCTOR_SOURCE}\n\n" if "np_constructor" in body else "")
        + f"{_DISTANCES}\n\ndp.enable_features({features})\n"
        + body
    )


def _metric_call(metric_name: str) -> tuple[str, bool]:
    """(function name, squared) for an output metric's printed name."""
    name = metric_name.partition("(")[0].strip()
    return {
        "SymmetricDistance": ("symmetric", False),
        "InsertDeleteDistance": ("insert_delete", False),
        "HammingDistance": ("hamming", False),
        "ChangeOneDistance": ("change_one", False),
        "AbsoluteDistance": ("absolute", False),
        "L1Distance": ("l1", False),
        "L2Distance": ("l2_squared", True),
    }[name]


def _integer_metric(metric_name: str) -> bool:
    """Is the printed metric (``L1Distance(i32)``) one of an integer type?"""
    inner = metric_name.partition("(")[2].rstrip(")").strip()
    return inner.startswith(("i", "u"))


def pair_script(target, code, idealized, x, x_prime, input_metric, output_metric, d_in=None) -> str:
    """A pair whose outputs are further apart than the target's own map allows.  ``d_in`` is
    the distance the search passed to the target's map (an ``int`` or ``float``, the least
    value of the metric's type at least the exact distance): the script passes the same one,
    after checking exactly that the pair is within it (exit 2 if not)."""
    distance_in, squared_in = _metric_call(input_metric)
    distance_out, squared = _metric_call(output_metric)
    if isinstance(d_in, (int, float)) and not isinstance(d_in, bool):
        within = (
            f"{distance_in}(x, x_prime) <= exact(d_in) * exact(d_in)"
            if squared_in
            else f"{distance_in}(x, x_prime) <= exact(d_in)"
        )
        d_in = (
            f"{literal(d_in)}  # at least the exact distance, in the metric's own type\n"
            f"if not {within}:\n"
            '    print("the pair is not within d_in: not reproduced")\n'
            "    sys.exit(2)\n"
        )
    else:
        # an L2 input distance: the least integer at least its square root (the pairs searched
        # under an integer L2 metric are at an integer distance; a larger d_in only raises the map)
        d_in = (
            f"math.isqrt(int({distance_in}(x, x_prime)))\n"
            f"d_in += d_in * d_in < {distance_in}(x, x_prime)\n"
            if squared_in
            else f"{distance_in}(x, x_prime)\n"
        )
        if _integer_metric(input_metric) and distance_in in ("l1", "absolute"):
            d_in += "d_in = int(d_in)  # exact: an integer metric; the target takes a Python int\n"
    compare = "claimed_exact = exact(claimed)\n" + (
        "over = actual > claimed_exact * claimed_exact\n"
        if squared
        else "over = actual > claimed_exact\n"
    )
    shown = "squared distance" if squared else "distance"
    return _script(
        target,
        idealized,
        ("\nimport math\n" if squared_in else "")
        + f"\nbuilt = {code}\nx = {literal(x)}\nx_prime = {literal(x_prime)}\n"
        f"d_in = {d_in}"
        "claimed = built.map(d_in)\n"
        f"actual = {distance_out}(built(x), built(x_prime))\n"
        + compare
        + f'print(f"input distance {{d_in}}: the map claims {{claimed!r}}; actual output {shown} '
        f'{{show(actual)}} (exactly {{actual}})")\n'
        'print("REPRODUCED: the outputs are further apart than the map allows" if over '
        'else "not reproduced")\n'
        "sys.exit(1 if over else 0)\n",
    )


def coupling_script(target, code, idealized, x, x_prime, input_metric, output_metric, draws):
    """Resize: an output on x' further than the map from every output seen on x, often
    enough that no coupling within the map exists (see certdp.crosscheck.coupling)."""
    distance_in, _ = _metric_call(input_metric)
    distance_out, _ = _metric_call(output_metric)
    return _script(
        target,
        idealized,
        "import math\n\n"
        f"built = {code}\nx = {literal(x)}\nx_prime = {literal(x_prime)}\n"
        f"d_in = {distance_in}(x, x_prime)\nclaimed = built.map(d_in)\nalpha = 1e-6\n"
        f"support = {{}}\nfor _ in range({draws.first}):\n"
        "    y = built(x)\n    support.setdefault(tuple(map(key, y)), y)\n"
        f"confirm = [built(x) for _ in range({draws.confirm})]\n"
        "pinned = all(tuple(map(key, y)) in support for y in confirm)\n"
        f"others = [built(x_prime) for _ in range({draws.other})]\n"
        f"far = [y2 for y2 in others if all({distance_out}(y, y2) > claimed "
        "for y in support.values())]\n"
        f"outside = math.log(1 / alpha) / {draws.confirm}\n"
        f"lower = len(far) / {draws.other} - math.sqrt(math.log(1 / alpha) / (2 * {draws.other}))\n"
        "over = pinned and lower > outside\n"
        'print(f"input distance {d_in}: the map claims {claimed!r}")\n'
        'print(f"outputs seen on x: {[list(y) for y in support.values()]}")\n'
        f'if far:\n    print(f"an output on x_prime, {{list(far[0])!r}}, is at least '
        f"{{min({distance_out}(y, far[0]) for y in support.values())}} away from every output "
        'on x; such outputs: {len(far)} of {len(others)}")\n'
        'print(f"P(output on x outside those) <= {outside:.4f}; P(far output on x_prime) >= '
        '{lower:.4f} (each except with probability {alpha})")\n'
        'print("REPRODUCED: no coupling within the claimed distance" if over else "not reproduced")\n'
        "sys.exit(1 if over else 0)\n",
    )


def map_script(target, code, idealized, d_in, exact_text: str, lower) -> str:
    """A map value below certdp's exact bound (a suspect: no pair shows it)."""
    return _script(
        target,
        idealized,
        f"\nbuilt = {code}\nd_in = {d_in!r}\nclaimed = built.map(d_in)\n"
        f"lower = Fraction({lower.numerator}, {lower.denominator})  # at most certdp's exact "
        f"bound {exact_text}\n"
        "below = exact(claimed) < lower\n"
        'print(f"map({d_in}) = {claimed!r}; certdp\'s exact bound is at least {float(lower)!r}")\n'
        'print("REPRODUCED: the map is below the exact bound of the same algorithm" if below '
        'else "not reproduced")\n'
        "sys.exit(1 if below else 0)\n",
    )


def noise_script(target, noise, n: int) -> str:
    """The scale test of :mod:`certdp.crosscheck.noise` on ``n`` fresh draws."""
    from .noise import ALPHA, moments

    integer = noise.k == 0 and noise.T.startswith(("i", "u"))
    h = 1.0 if integer else 2.0**noise.k
    mean, variance = moments(noise.kind, noise.scale, h)
    centre = 2 ** (int(noise.T[1:]) - 1) if noise.T.startswith("u") else 0
    zero = centre if integer else 0.0
    statistic = "abs(v)" if noise.kind == "laplace" else "v * v"
    return _script(
        target,
        False,
        "import math\n\n"
        f"measurement = {noise.sampler}\n"
        f"values = [v - {centre} for v in measurement([{zero!r}] * {n})]\n"
        f"observed = sum({statistic} for v in values) / len(values)\n"
        f"mean, variance = {mean!r}, {variance!r}  # exact, of the {noise.kind} law\n"
        "z = (observed - mean) / math.sqrt(variance / len(values))\n"
        "p = math.erfc(abs(z) / math.sqrt(2))\n"
        'print(f"scale statistic {observed!r}, exact mean {mean!r}: z = {z:.2f}, p = {p:.3g}")\n'
        f"sys.exit(1 if p < {ALPHA!r} else 0)\n",
    )


def domain_script(target, code, idealized, x) -> str:
    """An input on which the target's output is outside the target's own output domain."""
    return _script(
        target,
        idealized,
        f"\nbuilt = {code}\nx = {literal(x)}\ny = built(x)\n"
        "inside = built.output_domain.member(y)\n"
        'print(f"f(x) = {y!r}; in the declared output domain {built.output_domain}: {inside}")\n'
        'print("not reproduced" if inside else "REPRODUCED: the output is outside the declared '
        'output domain")\n'
        "sys.exit(0 if inside else 1)\n",
    )
