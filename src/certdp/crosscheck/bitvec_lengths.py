"""The length check of randomized response on bit vectors (OpenDP #2930).

A bit-vector domain without a length admits ``x = b"\\x00"`` and ``x' = b"\\x00\\x00"``: both
of weight 0, at discrete distance 1.  The release keeps the length of its input, so the outputs
on ``x`` and ``x'`` have disjoint supports (one byte against two): their max-divergence is
``+inf``.  A target that admits both and claims a finite ``map(1)`` is wrong at that pair; the
check observes the lengths in the target itself (a few releases of each), and the reproducer
does the same with the target alone.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LengthPair", "check_lengths", "lengths_script", "PAIR"]

#: The pair: two members of weight 0 and different lengths.
PAIR = (b"\x00", b"\x00\x00")
RELEASES = 20


@dataclass
class LengthPair:
    x: bytes
    x_prime: bytes
    claimed: object
    lengths: tuple  # the output lengths seen on x and on x'


def check_lengths(built) -> LengthPair | None:
    """The pair, when the target admits both members, claims a finite ``map(1)`` and its
    outputs on them have different lengths (every release observed)."""
    x, x_prime = PAIR
    try:
        claimed = built.map(1)
        seen = (
            {len(built(x)) for _ in range(RELEASES)},
            {len(built(x_prime)) for _ in range(RELEASES)},
        )
    except Exception:
        return None  # the target refuses the pair or the distance: it claims nothing there
    if claimed == float("inf") or seen[0] & seen[1]:
        return None
    return LengthPair(x, x_prime, claimed, (sorted(seen[0]), sorted(seen[1])))


def lengths_script(target: str, code: str, found: LengthPair) -> str:
    """A script in the target's API: release ``x`` and ``x'`` and compare the output lengths;
    reproduced when every output on ``x`` is shorter than every output on ``x'`` (disjoint
    supports: max-divergence ``+inf``) while the claimed ``map(1)`` is finite."""
    return (
        "import math\nimport sys\n\n"
        f"import {target} as dp\n\n"
        'dp.enable_features("contrib")\n'
        f"built = {code}\nx = {found.x!r}\nx_prime = {found.x_prime!r}\n"
        "claimed = built.map(1)  # x and x_prime differ: discrete distance 1\n"
        f"on_x = {{len(built(x)) for _ in range({RELEASES})}}\n"
        f"on_x_prime = {{len(built(x_prime)) for _ in range({RELEASES})}}\n"
        'print(f"map(1) = {claimed!r}; output lengths on x: {sorted(on_x)}, on x_prime: '
        '{sorted(on_x_prime)}")\n'
        "over = math.isfinite(claimed) and not (on_x & on_x_prime)\n"
        'print("REPRODUCED: the output length tells x from x_prime (max-divergence inf)" '
        'if over else "not reproduced")\n'
        "sys.exit(1 if over else 0)\n"
    )
