"""The registry of twins: for every certdp constructor, the same algorithm in the target's API.

A twin is a certdp constructor and a grid of points; a point is one call in the shared
(OpenDP-style) API, written as code with ``dp`` standing for the library: evaluated with
certdp's prelude it builds the oracle, with the target's it builds the object under audit,
and pasted into a script it is the reproducer.  ``oracle`` gives certdp's call where the
target reaches the algorithm through another constructor (certdp's ``make_integer_laplace``
is OpenDP's ``make_laplace`` on an integer atom domain).  ``space`` is the input domain and
metric (certdp code) the counterexample search draws neighbours from; by default the oracle's.

Every constructor certdp has must be registered here (tests/crosscheck checks it): a new
constructor registers its twin in the commit that adds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .grids import (
    DATASET_D_INS,
    FLOAT_TYPES,
    INT_TYPES,
    QUICK_DATASET_D_INS,
    SIZES,
    float_bounds,
    int_bounds,
    int_range,
    numeric_d_ins,
)

__all__ = ["Noise", "Point", "Twin", "TWINS", "register", "twin_points"]


@dataclass(frozen=True)
class Noise:
    """How to sample a measurement's noise in the target: ``sampler`` (target code) builds a
    vector measurement that is invoked on ``[zero] * n``; its outputs are ``n`` draws of the
    noise of ``kind`` (``"laplace"`` or ``"gaussian"``) with ``scale`` on the grid ``2**k``
    (``k = 0`` for integers)."""

    kind: str  # also "bernoulli": 0/1 draws, 1 with probability ``scale`` (randomized response)
    T: str
    scale: float
    sampler: str
    k: int = 0


@dataclass(frozen=True)
class Point:
    """One point of a twin's grid."""

    twin: str
    code: str
    d_ins: tuple
    oracle: str | None = None
    space: str | None = None
    search: str = "pairs"  # "pairs", "coupling" (randomised transformations), "lone-keys"
    # (thresholded releases: see lone_keys.py), "bitvec-lengths" (bitvec_lengths.py),
    # "b-ary-tree" (tree_pairs.py, after the pair search) or "" (none)
    noise: Noise | None = None
    deltas: tuple = ()  # for privacy profiles: the deltas at which epsilon is compared
    threshold: tuple = ()  # for search "lone-keys": (scale, threshold, noise kind)
    records: tuple = ()  # for search "mean-rounding": (lower, upper, size, T)
    tree: tuple = ()  # for search "b-ary-tree": (leaf_count, branching_factor, T) (tree_pairs.py)
    alphas: tuple = ()  # for Rényi curves: the orders at which the two curves are compared
    inputs: tuple = ()  # for a Function twin (kind "function"): arguments whose outputs compare

    @property
    def oracle_code(self) -> str:
        return self.oracle or self.code


@dataclass(frozen=True)
class Twin:
    name: str
    kind: str  # "transformation", "measurement", "combinator" or "function" (a postprocessor)
    points: Callable[[bool], list[Point]] = field(repr=False)


TWINS: dict[str, Twin] = {}


def register(name: str, kind: str):
    """Register the grid function below as the twin of certdp's constructor ``name``."""

    def decorate(points):
        if name in TWINS:  # a second grid would silently replace the first (a merge artefact)
            raise ValueError(f"twin {name} is registered twice")
        TWINS[name] = Twin(name, kind, points)
        return points

    return decorate


def twin_points(name: str, quick: bool = False) -> list[Point]:
    return TWINS[name].points(quick)


def _d_ins(quick: bool) -> tuple:
    return QUICK_DATASET_D_INS if quick else DATASET_D_INS


def _sweep(bounds_list: list, quick: bool) -> list:
    """(bounds, size) pairs: every bounds at size 16, and every size for the first bounds
    (small, around zero) and for the widest (the type's whole range, or huge floats)."""
    if quick:
        return [(bounds, 16) for bounds in bounds_list] + [(bounds_list[0], 1)]
    widest = max(bounds_list, key=lambda b: float(b[1]) - float(b[0]))
    found = [(bounds, 16) for bounds in bounds_list]
    for bounds in {bounds_list[0]: None, widest: None}:
        found += [(bounds, size) for size in SIZES if size != 16]
    return found


def _atom(bounds, T) -> str:
    return f"dp.atom_domain(bounds={bounds!r}, T={T!r})"


def _metric(ordered: bool) -> str:
    return "dp.insert_delete_distance()" if ordered else "dp.symmetric_distance()"


def _vector(atom: str, size=None) -> str:
    return f"dp.vector_domain({atom})" if size is None else f"dp.vector_domain({atom}, size={size})"


# -- integer sums -------------------------------------------------------------------------------
def _int_sum(kind: str, sized: bool):
    name = f"make_{'sized_' if sized else ''}bounded_int_{kind}_sum"
    ordered = kind == "ordered"

    def points(quick: bool) -> list[Point]:
        found = []
        types = ("i8", "u64", "i64") if quick else INT_TYPES
        for T in types:
            pairs = (
                _sweep(int_bounds(T, quick), quick)
                if sized
                else ([(bounds, None) for bounds in int_bounds(T, quick)])
            )
            for bounds, size in pairs:
                if True:
                    args = f"{size}, {bounds!r}, T={T!r}" if sized else f"{bounds!r}, T={T!r}"
                    space = f"{_vector(_atom(bounds, T), size)}, {_metric(ordered)}"
                    found.append(Point(name, f"dp.t.{name}({args})", _d_ins(quick), space=space))
        return found

    register(name, "transformation")(points)


for _kind in ("checked", "monotonic", "ordered", "split"):
    _int_sum(_kind, sized=True)
for _kind in ("monotonic", "ordered", "split"):
    _int_sum(_kind, sized=False)


# -- float sums ---------------------------------------------------------------------------------
#: The point OpenDP 0.16 gets wrong: a saturating pairwise sum of 16 records of either sign.
SATURATING_PAIRWISE = (16, (-0.2 * 1.7976931348623157e308, 0.75 * 1.7976931348623157e308))


def _float_sum(kind: str, sized: bool):
    name = f"make_{'sized_' if sized else ''}bounded_float_{kind}_sum"
    ordered = kind == "ordered"

    def points(quick: bool) -> list[Point]:
        found = []
        for T in FLOAT_TYPES:
            for S in ("Sequential", "Pairwise"):
                for bounds, size in _sweep(float_bounds(T, quick), quick):
                    if not sized and size in (0, 2):
                        continue  # the size limit of an unsized sum: 1, 16 and a million
                    if True:
                        args = f"{size}, {bounds!r}, S='{S}<{T}>'"
                        space = f"{_vector(_atom(bounds, T), size if sized else None)}, " + (
                            _metric(ordered)
                        )
                        found.append(
                            Point(name, f"dp.t.{name}({args})", _d_ins(quick), space=space)
                        )
        return found

    register(name, "transformation")(points)


for _kind in ("checked", "ordered"):
    _float_sum(_kind, sized=True)
    _float_sum(_kind, sized=False)


# -- make_sum: the dispatcher -------------------------------------------------------------------
@register("make_sum", "transformation")
def _sum_points(quick: bool) -> list[Point]:
    found = []
    types = ("i32", "u8", "f64", "f32") if quick else (*INT_TYPES, *FLOAT_TYPES)
    for T in types:
        bounds_list = float_bounds(T, quick) if T.startswith("f") else int_bounds(T, quick)
        combos = [(b, None) for b in bounds_list]
        combos += [(b, 16) for b in bounds_list] if quick else _sweep(bounds_list, quick)
        for bounds, size in combos:
            for ordered in (False, True) if size in (None, 16) else (False,):
                if True:
                    space = f"{_vector(_atom(bounds, T), size)}, {_metric(ordered)}"
                    code = f"dp.t.make_sum({space})"
                    found.append(Point("make_sum", code, _d_ins(quick)))
    return found


# -- element-wise and dataset transformations ---------------------------------------------------
def _plain_atom(T: str) -> str:
    return f"dp.atom_domain(T={T!r})"


@register("make_clamp", "transformation")
def _clamp_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else (*INT_TYPES, *FLOAT_TYPES):
        bounds_list = float_bounds(T, quick) if T.startswith("f") else int_bounds(T, quick)
        for bounds in bounds_list:
            for ordered in (False, True) if bounds == bounds_list[0] else (False,):
                space = f"{_vector(_plain_atom(T))}, {_metric(ordered)}"
                found.append(
                    Point("make_clamp", f"dp.t.make_clamp({space}, {bounds!r})", _d_ins(quick))
                )
    return found


@register("make_is_equal", "transformation")
def _is_equal_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else (*INT_TYPES, *FLOAT_TYPES):
        values = (0, int_range(T)[1]) if T.startswith(("i", "u")) else (0.0, -0.0, 5e-324)
        for value in values:
            for ordered in (False, True):
                space = f"{_vector(_plain_atom(T))}, {_metric(ordered)}"
                code = f"dp.t.make_is_equal({space}, {value!r})"
                found.append(Point("make_is_equal", code, _d_ins(quick)))
    return found


@register("make_impute_constant", "transformation")
def _impute_constant_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for constant in (0.0, -0.0, 1.5) if quick else (0.0, -0.0, 1.5, 5e-324, -1e300, "inf"):
            value = "float('inf')" if constant == "inf" else repr(constant)
            for ordered in (False, True):
                element = f"dp.atom_domain(T={T!r}, nan=True)"
                space = f"{_vector(element)}, {_metric(ordered)}"
                code = f"dp.t.make_impute_constant({space}, {value})"
                found.append(Point("make_impute_constant", code, _d_ins(quick)))
    return found


_CAST_TYPES = ("i32", "i64", "u32", "u64", "f32", "f64", "bool", "String")


@register("make_cast_default", "transformation")
def _cast_default_points(quick: bool) -> list[Point]:
    # The types OpenDP 0.16 casts between.
    types = ("i32", "f64", "bool") if quick else _CAST_TYPES
    found = []
    for T in types:
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T.startswith("f") else _plain_atom(T)
        for TOA in types:
            for ordered in (False, True) if TOA == types[0] else (False,):
                space = f"{_vector(element)}, {_metric(ordered)}"
                code = f"dp.t.make_cast_default({space}, TOA={TOA!r})"
                found.append(Point("make_cast_default", code, _d_ins(quick)))
    return found


@register("make_cast", "transformation")
def _cast_points(quick: bool) -> list[Point]:
    # The maps are compared. OpenDP 0.16's Python API cannot return make_cast's output (a
    # vector of options: "unrecognized generic Vec"), so the pair search runs OpenDP's cast
    # followed by its make_impute_constant (1-stable, a row map) and checks that chain's outputs
    # against its own map and certdp's output domain; the values themselves are compared with
    # OpenDP's by tests/transformations/test_cast.py.
    types = ("i32", "f64", "String") if quick else _CAST_TYPES
    fill = {"bool": "True", "String": "'-'", "f32": "7.0", "f64": "7.0"}
    found = []
    for T in types:
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T.startswith("f") else _plain_atom(T)
        for TOA in types:
            for ordered in (False, True) if TOA == types[0] else (False,):
                space = f"{_vector(element)}, {_metric(ordered)}"
                oracle = f"dp.t.make_cast({space}, TOA={TOA!r})"
                code = f"{oracle} >> dp.t.then_impute_constant({fill.get(TOA, '7')})"
                found.append(Point("make_cast", code, _d_ins(quick), oracle=oracle))
    return found


@register("make_cast_inherent", "transformation")
def _cast_inherent_points(quick: bool) -> list[Point]:
    types = ("i32", "f64", "String") if quick else _CAST_TYPES
    found = []
    for T in types:
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T.startswith("f") else _plain_atom(T)
        for TOA in ("f32", "f64"):
            for ordered in (False, True) if TOA == "f64" else (False,):
                space = f"{_vector(element)}, {_metric(ordered)}"
                code = f"dp.t.make_cast_inherent({space}, TOA={TOA!r})"
                found.append(Point("make_cast_inherent", code, _d_ins(quick)))
    return found


def _null_points(name: str, quick: bool) -> list[Point]:
    # Float atom domains: OpenDP 0.16's Python API cannot build a vector of an option domain
    # (only make_cast outputs one), so option inputs are compared by tests/transformations.
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for size in (None,) if quick else (None, 3):
            for ordered in (False, True):
                sized = "" if size is None else f", size={size}"
                vector = f"dp.vector_domain(dp.atom_domain(T={T!r}, nan=True){sized})"
                code = f"dp.t.make_{name}({vector}, {_metric(ordered)})"
                found.append(Point(f"make_{name}", code, _d_ins(quick)))
    return found


@register("make_is_null", "transformation")
def _is_null_points(quick: bool) -> list[Point]:
    return _null_points("is_null", quick)


@register("make_drop_null", "transformation")
def _drop_null_points(quick: bool) -> list[Point]:
    return _null_points("drop_null", quick)


@register("make_identity", "transformation")
def _identity_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else _CAST_TYPES:
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T.startswith("f") else _plain_atom(T)
        for ordered in (False, True):
            code = f"dp.t.make_identity({_vector(element)}, {_metric(ordered)})"
            found.append(Point("make_identity", code, _d_ins(quick)))
    return found


@register("make_impute_uniform_float", "transformation")
def _impute_uniform_float_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for bounds in ((0.0, 1.0),) if quick else ((0.0, 1.0), (-1e30, 5e-324), (-2.5, -1.0)):
            for ordered in (False, True):
                element = f"dp.atom_domain(T={T!r}, nan=True)"
                space = f"{_vector(element)}, {_metric(ordered)}"
                code = f"dp.t.make_impute_uniform_float({space}, {bounds!r})"
                found.append(Point("make_impute_uniform_float", code, _d_ins(quick)))
    return found


@register("make_find_bin", "transformation")
def _find_bin_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else ("i32", "i64", "u32", "u64", "f32", "f64"):
        if T.startswith("f"):
            edge_lists = [[-0.5, 0.0, 2.5]] if quick else [[-0.5, 0.0, 2.5], [], [-1e30, 1e30]]
        else:
            edge_lists = [[0, 3, 7]] if quick else [[0, 3, 7], [], [1]]
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T.startswith("f") else _plain_atom(T)
        for edges in edge_lists:
            for ordered in (False, True):
                space = f"{_vector(element)}, {_metric(ordered)}"
                code = f"dp.t.make_find_bin({space}, {edges!r})"
                found.append(Point("make_find_bin", code, _d_ins(quick)))
    return found


@register("make_find", "transformation")
def _find_points(quick: bool) -> list[Point]:
    # As for make_cast: OpenDP's Python API cannot return make_find's vector of options, so the
    # pair search runs it followed by make_impute_constant (1-stable); the oracle is make_find.
    cases = {"i32": [[3, 1, 0]], "String": [["a", "", "b"]]}
    if not quick:
        cases.update({"u64": [[0, 2**64 - 1]], "bool": [[True]], "i64": [[]]})
    found = []
    for T, category_lists in cases.items():
        for categories in category_lists:
            for ordered in (False, True):
                space = f"{_vector(_plain_atom(T))}, {_metric(ordered)}"
                oracle = f"dp.t.make_find({space}, {categories!r})"
                code = f"{oracle} >> dp.t.then_impute_constant(1000000)"
                found.append(Point("make_find", code, _d_ins(quick), oracle=oracle))
    return found


@register("make_index", "transformation")
def _index_points(quick: bool) -> list[Point]:
    cases = [(["a", "b"], "'z'", "None"), ([1.5, -0.0], "0.5", "None")]
    if not quick:
        cases += [([3, 3], "0", "'i64'"), ([True], "False", "None"), ([0.1], "2.0", "'f32'")]
    found = []
    for categories, null, TOA in cases:
        for ordered in (False, True):
            space = f"{_vector(_plain_atom('usize'))}, {_metric(ordered)}"
            code = f"dp.t.make_index({space}, {categories!r}, {null}, TOA={TOA})"
            found.append(Point("make_index", code, _d_ins(quick)))
    return found


@register("make_count", "transformation")
def _count_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else ("i8", "i32", "u64", "f32", "f64"):
        for TO in ("i32",) if quick else ("i32", "u32", "i64", "u64"):
            for ordered in (False, True):
                space = f"{_vector(_plain_atom(T))}, {_metric(ordered)}"
                code = f"dp.t.make_count({space}, TO={TO!r})"
                found.append(Point("make_count", code, _d_ins(quick)))
    return found


@register("make_count_by_categories", "transformation")
def _count_by_categories_points(quick: bool) -> list[Point]:
    found = []
    cases = [("String", ["a", "b", "c"]), ("i32", [0, 1, 2])]
    if not quick:
        cases += [("bool", [True]), ("i64", []), ("u32", [7, 0])]
    metrics = ["L1Distance<int>", "L2Distance<f64>"]
    if not quick:
        metrics += ["L1Distance<u32>", "L2Distance<f32>", "L1Distance<i64>"]
    for T, categories in cases:
        for MO in metrics:
            for null in (True, False):
                for TOA in ("i32",) if quick else ("i32", "u32", "f64"):
                    space = f"{_vector(_plain_atom(T))}, dp.symmetric_distance()"
                    code = (
                        f"dp.t.make_count_by_categories({space}, categories={categories!r}, "
                        f"null_category={null!r}, MO={MO!r}, TOA={TOA!r})"
                    )
                    found.append(Point("make_count_by_categories", code, _d_ins(quick)))
    return found


@register("make_count_by", "transformation")
def _count_by_points(quick: bool) -> list[Point]:
    found = []
    for T in ("String", "i32") if quick else ("String", "i32", "i64", "u32", "bool"):
        for TV in ("i32",) if quick else ("i32", "u32", "i64", "usize"):
            space = f"{_vector(_plain_atom(T))}, dp.symmetric_distance()"
            found.append(
                Point("make_count_by", f"dp.t.make_count_by({space}, TV={TV!r})", _d_ins(quick))
            )
    return found


@register("make_count_distinct", "transformation")
def _count_distinct_points(quick: bool) -> list[Point]:
    found = []
    for T in ("String", "i32") if quick else ("String", "i32", "i64", "u32", "bool"):
        for TO in ("i32",) if quick else ("i32", "u32", "i64", "f32", "f64"):
            space = f"{_vector(_plain_atom(T))}, dp.symmetric_distance()"
            code = f"dp.t.make_count_distinct({space}, TO={TO!r})"
            found.append(Point("make_count_distinct", code, _d_ins(quick)))
    return found


@register("make_mean", "transformation")
def _mean_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        bounds_list = float_bounds(T, quick)
        combos = [(b, size) for b in bounds_list for size in (1, 16)]
        if not quick:
            combos += [(bounds_list[0], 2), (bounds_list[0], 1000)]
        for bounds, size in combos:
            for ordered in (False, True):
                if True:
                    space = f"{_vector(_atom(bounds, T), size)}, {_metric(ordered)}"
                    found.append(Point("make_mean", f"dp.t.make_mean({space})", _d_ins(quick)))
    return found


@register("make_resize", "transformation")
def _resize_points(quick: bool) -> list[Point]:
    found = []
    atoms = {"i32": (0, 1), "f64": (0.0, 1.0)}
    for T in ("i32",) if quick else ("i32", "f64"):
        for size in (3,) if quick else (1, 2, 3):
            for MI in (True, False):
                for MO in (True, False):
                    space = f"{_vector(_plain_atom(T))}, {_metric(MI)}"
                    MO_name = "InsertDeleteDistance" if MO else "SymmetricDistance"
                    constant = atoms[T][0]
                    code = f"dp.t.make_resize({space}, size={size}, constant={constant!r}, MO={MO_name!r})"
                    found.append(
                        Point("make_resize", code, (0, 1, 2, 3, 2**31 - 1), search="coupling")
                    )
    return found


# -- NumPy --------------------------------------------------------------------------------------
def _array2(T: str, norm, p, size, columns, origin=None) -> str:
    parts = [f"norm={norm!r}", f"p={p}", f"T={T!r}", "nan=False"]
    if size is not None:
        parts.append(f"size={size}")
    if columns is not None:
        parts.append(f"num_columns={columns}")
    if origin is not None:
        parts.append(
            f"origin=np.array({origin!r}, dtype={'np.float32' if T == 'f32' else 'np.float64'})"
        )
    return f"dp.numpy.array2_domain({', '.join(parts)})"


@register("make_np_sum", "transformation")
def _np_sum_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for p in (1, 2):
            for norm in (1.0,) if quick else (1.0, 1e30):
                for size in (None, 10) if quick else (None, 1, 10):
                    for columns in (3, None):
                        for origin in (None,) if quick else (None, [1.0, -2.0, 0.5]):
                            if origin is not None and columns is None:
                                continue
                            domain = _array2(T, norm, p, size, columns, origin)
                            code = (
                                f"np_constructor(dp, 'make_np_sum')({domain}, "
                                "dp.symmetric_distance())"
                            )
                            space = f"{domain}, dp.symmetric_distance()"
                            found.append(Point("make_np_sum", code, _d_ins(quick), space=space))
    return found


@register("make_np_clamp", "transformation")
def _np_clamp_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for p in (1, 2):
            for norm in (1.0,) if quick else (1.0, 1e-3, 1e30):
                for origin in (None,) if quick else (None, [1.0, -2.0, 0.5]):
                    domain = f"dp.numpy.array2_domain(T={T!r}, num_columns=3, nan=False)"
                    origin_code = (
                        ""
                        if origin is None
                        else f", origin=np.array({origin!r}, dtype="
                        f"{'np.float32' if T == 'f32' else 'np.float64'})"
                    )
                    code = (
                        f"np_constructor(dp, 'make_np_clamp')({domain}, dp.symmetric_distance(),"
                        f" norm={norm!r}, p={p}{origin_code})"
                    )
                    found.append(Point("make_np_clamp", code, _d_ins(quick)))
    return found


@register("make_np_count", "transformation")
def _np_count_points(quick: bool) -> list[Point]:
    found = []
    for T in ("f64",) if quick else ("f64", "f32", "i32"):
        for size in (None, 10) if quick else (None, 0, 1, 10):
            for columns in (None, 3):
                parts = [f"T={T!r}"] + ([] if size is None else [f"size={size}"])
                parts += [] if columns is None else [f"num_columns={columns}"]
                domain = f"dp.numpy.array2_domain({', '.join(parts)})"
                code = f"np_constructor(dp, 'make_np_count')({domain}, dp.symmetric_distance())"
                space = f"{domain}, dp.symmetric_distance()"
                found.append(Point("make_np_count", code, _d_ins(quick), space=space))
    return found


@register("make_np_sscp", "transformation")
def _np_sscp_points(quick: bool) -> list[Point]:
    """The output metric is the symmetric distance of the datasets behind the matrices (record
    space), so the search is the record-space one (the pair search would measure the matrices'
    rows as records)."""
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        for norm in (None, 1.0) if quick else (None, 1.0, 1e200):
            for p in (2,) if quick or norm is None else (1, 2):
                for size in (None,) if quick else (None, 10):
                    parts = [f"T={T!r}", "nan=False", "num_columns=3"]
                    parts += [] if norm is None else [f"norm={norm!r}", f"p={p}"]
                    parts += [] if size is None else [f"size={size}"]
                    domain = f"dp.numpy.array2_domain({', '.join(parts)})"
                    code = f"np_constructor(dp, 'make_np_sscp')({domain}, dp.symmetric_distance())"
                    space = f"{domain}, dp.symmetric_distance()"
                    found.append(
                        Point(
                            "make_np_sscp", code, _d_ins(quick), space=space, search="record-space"
                        )
                    )
    return found


@register("make_private_np_mean", "measurement")
def _private_np_mean_points(quick: bool) -> list[Point]:
    """The mean's noise is the Laplace (p = 1) or Gaussian (p = 2) noise of scale ``scale * n``
    added to the column sums: the noise point samples that measurement on the sums' space, whose
    f64 noise lies on the grid 2**-1074 (k = -1074; a first version said k = 0, the integer grid,
    and so reported a deviation that was the model's, not OpenDP's)."""
    found = []
    size = 10
    for p in (1, 2):
        for norm in (1.0,) if quick else (1.0, 1e-3, 1e30):
            for scale in _QUICK_SCALES if quick else _SCALES:
                domain = f"dp.numpy.array2_domain(T='f64', size={size}, num_columns=3)"
                code = (
                    f"np_constructor(dp, 'make_private_np_mean')({domain}, "
                    f"dp.symmetric_distance(), {scale!r}, norm={norm!r}, p={p})"
                )
                noise = None
                if norm == 1.0 and scale == _QUICK_SCALES[0]:
                    kind, metric = ("laplace", "l1") if p == 1 else ("gaussian", "l2")
                    sampler = (
                        f"dp.m.make_{kind}(dp.vector_domain(dp.atom_domain(T='f64', nan=False)),"
                        f" dp.{metric}_distance(T='f64'), {float(scale * size)!r})"
                    )
                    noise = Noise(kind, "f64", float(scale * size), sampler, -1074)
                found.append(
                    Point("make_private_np_mean", code, _d_ins(quick), search="", noise=noise)
                )
    return found


# -- measurements -------------------------------------------------------------------------------
_SCALES = (1.0, 3.5, 1e-3, 1e12)
_QUICK_SCALES = (3.5,)


def _numeric_space(T: str, vector: bool, l2: bool = False, D: str | None = None) -> str:
    """Atoms or vectors of ``T`` under the absolute, L1 or L2 distance of type ``D`` (``T``
    when None; a float type over integers, which OpenDP's make_laplace accepts too)."""
    nan = ", nan=False" if T.startswith("f") else ""
    atom = f"dp.atom_domain(T={T!r}{nan})"
    D = D or T
    if vector:
        metric = "l2_distance" if l2 else "l1_distance"
        return f"dp.vector_domain({atom}), dp.{metric}(T={D!r})"
    return f"{atom}, dp.absolute_distance(T={D!r})"


#: The (type, k) whose noise is tested (one scale each): every sampler path once, not every
#: point (a full-size test draws about 380 000 values).
_NOISE_CASES = {
    "make_laplace": {("i32", None), ("u32", None), ("f32", None), ("f64", None), ("f64", 2)},
}
_NOISE_DEFAULT = {("i32", None), ("f64", None)}


def _noise(kind: str, T: str, scale: float, k) -> Noise:
    constructor = "make_laplace" if kind == "laplace" else "make_gaussian"
    space = _numeric_space(T, vector=True, l2=kind == "gaussian")
    extra = "" if k is None else f", k={k}"
    grid = 0 if T.startswith(("i", "u")) else (-1074 if k is None else k)
    sampler = f"dp.m.{constructor}({space}, {scale!r}{extra})"
    return Noise(kind, T, scale, sampler, grid)


def _laplace_like(twin: str, integers: tuple, vectors: tuple, via: str | None):
    """``via``: certdp's own constructor name when the target reaches it through make_laplace."""

    def points(quick: bool) -> list[Point]:
        found = []
        for integer in integers:
            if integer:
                types = ("i32",) if quick else ("i8", "i32", "i64", "u32")
            else:
                types = ("f64",) if quick else FLOAT_TYPES
            # integers are also measured by a float distance type (fractional d_in included)
            distances = ((None, "f64") if quick else (None, "f64", "f32")) if integer else (None,)
            for T, vector, D in (
                (T, vector, D) for T in types for vector in vectors for D in distances
            ):
                for scale in _QUICK_SCALES if quick else _SCALES:
                    for k in (None,) if integer or quick else (None, -10, 2):
                        space = _numeric_space(T, vector, D=D)
                        extra = "" if k is None else f", k={k}"
                        code = f"dp.m.make_laplace({space}, {scale!r}{extra})"
                        oracle = None if via is None else f"dp.m.{via}({space}, {scale!r}{extra})"
                        noisy = (
                            D is None
                            and scale == _QUICK_SCALES[0]
                            and (vector or len(vectors) == 1)
                            and (T, k) in _NOISE_CASES.get(twin, _NOISE_DEFAULT)
                        )
                        noise = _noise("laplace", T, scale, k) if noisy else None
                        found.append(
                            Point(
                                twin,
                                code,
                                numeric_d_ins(D or T, quick),
                                oracle=oracle,
                                search="",
                                noise=noise,
                            )
                        )
        return found

    register(twin, "measurement")(points)


_laplace_like("make_laplace", (True, False), (False, True), via=None)
_laplace_like("make_integer_laplace", (True,), (False,), via="make_integer_laplace")
_laplace_like("make_vector_integer_laplace", (True,), (True,), via="make_vector_integer_laplace")
_laplace_like("make_float_laplace_cks20", (False,), (False,), via="make_float_laplace_cks20")
_laplace_like(
    "make_vector_float_laplace_cks20", (False,), (True,), via="make_vector_float_laplace_cks20"
)


@register("make_gaussian", "measurement")
def _gaussian_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32", "f64") if quick else ("i32", "i64", "f32", "f64"):
        for vector in (False, True):
            for scale in _QUICK_SCALES if quick else _SCALES:
                space = _numeric_space(T, vector, l2=True)
                code = f"dp.m.make_gaussian({space}, {scale!r})"
                noise = (
                    _noise("gaussian", T, scale, None)
                    if vector and scale == _QUICK_SCALES[0] and T in ("i32", "f64")
                    else None
                )
                found.append(
                    Point("make_gaussian", code, numeric_d_ins(T, quick), search="", noise=noise)
                )
    return found


# -- combinators --------------------------------------------------------------------------------
def _laplace_code(scale, T="f64") -> str:
    return f"dp.m.make_laplace({_numeric_space(T, False)}, {scale!r})"


def _gaussian_code(scale, T="f64") -> str:
    return f"dp.m.make_gaussian({_numeric_space(T, False)}, {scale!r})"


@register("make_composition", "combinator")
def _composition_points(quick: bool) -> list[Point]:
    found = []
    for scales in ((1.0, 3.5),) if quick else ((1.0, 3.5), (1e-3, 1e12), (0.1, 0.1, 0.1)):
        for T in ("f64",) if quick else ("f64", "i32"):
            inner = ", ".join(_laplace_code(scale, T) for scale in scales)
            code = f"dp.c.make_composition([{inner}])"
            found.append(Point("make_composition", code, numeric_d_ins(T, quick), search=""))
        inner = ", ".join(_gaussian_code(scale) for scale in scales)
        code = f"dp.c.make_composition([{inner}])"
        found.append(Point("make_composition", code, numeric_d_ins("f64", quick), search=""))
        # approximate DP parts: (epsilon, delta) pairs add coordinate-wise
        inner = ", ".join(
            f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP({_gaussian_code(scale)}), 1e-06)"
            for scale in scales
        )
        code = f"dp.c.make_composition([{inner}])"
        found.append(Point("make_composition", code, numeric_d_ins("f64", True), search=""))
    if not quick:
        found.append(_renyi_composition_point())
    return found


def _renyi_composition_point() -> Point:
    """Rényi-DP parts (user measurements with the Gaussian mechanism's curves, as OpenDP 0.16
    makes them): the composed curves are compared at several orders."""
    space = _numeric_space("f64", False)
    inner = ", ".join(
        f"dp.m.make_user_measurement({space}, dp.renyi_divergence(), lambda x: x, "
        f"lambda d: (lambda a: a * d * d / (2 * {scale!r} ** 2)))"
        for scale in (1.0, 3.5, 0.1)
    )
    return Point(
        "make_composition", f"dp.c.make_composition([{inner}])", numeric_d_ins("f64", True),
        search="", alphas=(1.5, 2.0, 10.0, 1e3),
    )  # fmt: skip


@register("make_adaptive_composition", "combinator")
def _adaptive_composition_points(quick: bool) -> list[Point]:
    """The map of the interactive compositor: the budgets' sum at every d_in up to the one it
    was built for (both refuse a larger one)."""
    measures = {
        "dp.max_divergence()": [[1.0, 0.5], [0.1, 0.2, 0.3], [1e-300, 1e300]],
        "dp.zero_concentrated_divergence()": [[0.25, 0.125], [0.1, 0.2, 0.3]],
        "dp.approximate(dp.max_divergence())": [[(1.0, 1e-7), (0.5, 1e-9)]],
        "dp.approximate(dp.zero_concentrated_divergence())": [[(0.1, 1e-7), (0.2, 2e-7)]],
    }
    found = []
    for measure, lists in measures.items():
        for d_mids in lists[:1] if quick else lists:
            for T in ("f64",) if quick else ("f64", "i32"):
                d_ins = numeric_d_ins(T, True)
                code = (
                    f"dp.c.make_adaptive_composition({_numeric_space(T, False)}, {measure}, "
                    f"{max(d_ins)!r}, {d_mids!r})"
                )
                found.append(Point("make_adaptive_composition", code, d_ins, search=""))
    return found


@register("make_pureDP_to_zCDP", "combinator")
def _pure_to_zcdp_points(quick: bool) -> list[Point]:
    return [
        Point(
            "make_pureDP_to_zCDP",
            f"dp.c.make_pureDP_to_zCDP({_laplace_code(scale, T)})",
            numeric_d_ins(T, quick),
            search="",
        )
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for T in (("f64",) if quick else ("f64", "i32"))
    ]


_DELTAS = (1e-12, 1e-6, 0.01, 0.5)


def _gaussian_threshold_code() -> str:
    """A Gaussian threshold under Approximate(ZeroConcentratedDivergence): integer counts,
    scale 1, threshold 10 (OpenDP's thresholds page)."""
    return f"dp.m.make_gaussian_threshold({_threshold_space('i32', 'f64', p=2)}, 1.0, 10)"


@register("make_zCDP_to_approxDP", "combinator")
def _zcdp_to_approx_points(quick: bool) -> list[Point]:
    found = [
        Point(
            "make_zCDP_to_approxDP",
            f"dp.c.make_zCDP_to_approxDP({_gaussian_code(scale, T)})",
            numeric_d_ins(T, True),
            search="",
            deltas=_DELTAS[1:3] if quick else _DELTAS,
        )
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for T in (("f64",) if quick else ("f64", "i32"))
    ]
    # Approximate(ZeroConcentratedDivergence): the map gives (profile, delta)
    found.append(
        Point(
            "make_zCDP_to_approxDP",
            f"dp.c.make_zCDP_to_approxDP({_gaussian_threshold_code()})",
            _THRESHOLD_D_INS,
            search="",
            deltas=_DELTAS[1:3] if quick else _DELTAS,
        )
    )
    return found


@register("make_fix_delta", "combinator")
def _fix_delta_points(quick: bool) -> list[Point]:
    found = [
        Point(
            "make_fix_delta",
            f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP({_gaussian_code(scale)}), {delta!r})",
            numeric_d_ins("f64", True),
            search="",
        )
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for delta in (_DELTAS[1:2] if quick else _DELTAS)
    ]
    # Approximate(SmoothedMaxDivergence): delta is the total, the threshold's delta a part
    found += [
        Point(
            "make_fix_delta",
            f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP({_gaussian_threshold_code()}), "
            f"{delta!r})",
            _THRESHOLD_D_INS,
            search="",
        )
        for delta in (_DELTAS[1:2] if quick else _DELTAS)
    ]
    return found


def _odometer_queries(kind: str, scales) -> str:
    if kind == "pure":
        return ", ".join(_laplace_code(scale) for scale in scales)
    if kind == "zcdp":
        return ", ".join(_gaussian_code(scale) for scale in scales)
    return ", ".join(
        f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP({_gaussian_code(scale)}), 1e-06)"
        for scale in scales
    )


_ODOMETER_MEASURES = {
    "pure": "dp.max_divergence()",
    "zcdp": "dp.zero_concentrated_divergence()",
    "approx": "dp.approximate(dp.max_divergence())",
}


@register("make_fully_adaptive_composition", "combinator")
def _odometer_points(quick: bool) -> list[Point]:
    """The odometer's ``privacy_loss`` after fixed queries, read as a map (an odometer has no
    map of its own): the code answers the queries and wraps ``privacy_loss`` as ``map``."""
    found = []
    for scales in ((1.0, 3.5),) if quick else ((1.0, 3.5), (1e-3, 1e12), (0.1, 0.1, 0.1)):
        for kind, measure in _ODOMETER_MEASURES.items():
            odometer = (
                f"dp.c.make_fully_adaptive_composition({_numeric_space('f64', False)}, {measure})"
            )
            code = (
                f"(lambda q: ([q(m) for m in [{_odometer_queries(kind, scales)}]], "
                "type('OdometerSpent', (), {'map': staticmethod(q.privacy_loss)})())[1])"
                f"({odometer}(0.0))"
            )
            d_ins = numeric_d_ins("f64", quick or kind == "approx")
            found.append(Point("make_fully_adaptive_composition", code, d_ins, search=""))
    if not quick:
        found.append(_renyi_odometer_point())
    return found


def _renyi_odometer_point() -> Point:
    """A Rényi odometer (session 12) after three user measurements with Gaussian curves: its
    ``privacy_loss`` curves are compared at several orders, as make_composition's are."""
    space = _numeric_space("f64", False)
    queries = ", ".join(
        f"dp.m.make_user_measurement({space}, dp.renyi_divergence(), lambda x: x, "
        f"lambda d: (lambda a: a * d * d / (2 * {scale!r} ** 2)))"
        for scale in (1.0, 3.5, 0.1)
    )
    odometer = f"dp.c.make_fully_adaptive_composition({space}, dp.renyi_divergence())"
    code = (
        f"(lambda q: ([q(m) for m in [{queries}]], "
        "type('OdometerSpent', (), {'map': staticmethod(q.privacy_loss)})())[1])"
        f"({odometer}(0.0))"
    )
    return Point(
        "make_fully_adaptive_composition", code, numeric_d_ins("f64", True), search="",
        alphas=(1.5, 2.0, 10.0, 1e3),
    )  # fmt: skip


@register("make_privacy_filter", "combinator")
def _filter_points(quick: bool) -> list[Point]:
    """The filter's map: ``d_out`` (rounded up) for every ``d_in`` up to the filter's own."""
    budgets = {"pure": (1.0, 1 / 3, 1e300), "zcdp": (0.5, 0.1), "approx": ((1.0, 1e-6),)}
    found = []
    for kind, measure in _ODOMETER_MEASURES.items():
        odometer = (
            f"dp.c.make_fully_adaptive_composition({_numeric_space('f64', False)}, {measure})"
        )
        for d_in in (1.0,) if quick else (1.0, 0.5, 3.0):
            for d_out in budgets[kind][:1] if quick else budgets[kind]:
                code = f"dp.c.make_privacy_filter({odometer}, d_in={d_in!r}, d_out={d_out!r})"
                found.append(
                    Point("make_privacy_filter", code, numeric_d_ins("f64", quick), search="")
                )
    azcdp = "dp.approximate(dp.zero_concentrated_divergence())"
    odometer = f"dp.c.make_fully_adaptive_composition({_numeric_space('f64', False)}, {azcdp})"
    for d_out in ((0.5, 1e-6),) if quick else ((0.5, 1e-6), (1 / 3, 0.0), (1e300, 1.0)):
        code = f"dp.c.make_privacy_filter({odometer}, d_in=1.0, d_out={d_out!r})"
        found.append(Point("make_privacy_filter", code, numeric_d_ins("f64", quick), search=""))
    return found


#: Context points where certdp's split (each share rounded down) and OpenDP's (a search for the
#: largest common factor) give the same shares; elsewhere OpenDP's shares are mostly smaller
#: and the accountant's map would differ by design, not by a fault.
_CONTEXT_SPLITS = (
    ("epsilon=1.0", "split_evenly_over=3"),
    ("epsilon=1.0", "split_by_weights=[1, 2]"),
    ("rho=0.5", "split_by_weights=[1, 3]"),
    ("epsilon=2.0", "split_evenly_over=2"),
    ("epsilon=1.0, delta=1e-07", "split_evenly_over=2"),
)


def _context_code(loss: str, split: str) -> str:
    return (
        "dp.Context.compositor(data=[1.0, 2.0, 3.0], privacy_unit=dp.unit_of(contributions=1), "
        f"privacy_loss=dp.loss_of({loss}), {split})"
    )


@register("context", "combinator")
def _context_points(quick: bool) -> list[Point]:
    """The Context: its accountant's map at the privacy unit (the composed shares of the split),
    and the map of a query whose scale it searched for (count, then Laplace or Gaussian)."""
    found = []
    for loss, split in _CONTEXT_SPLITS[:1] if quick else _CONTEXT_SPLITS:
        context = _context_code(loss, split)
        found.append(Point("context", f"{context}.accountant", (0, 1), search=""))
        if "delta" in loss:
            continue  # the pure query needs make_approximate to enter an approximate context
        mechanism = "laplace" if "epsilon" in loss else "gaussian"
        code = f"{context}.query().count().{mechanism}().resolve()"
        found.append(Point("context", code, (0, 1, 2, 3), search=""))
    return found


@register("make_approximate", "combinator")
def _approximate_points(quick: bool) -> list[Point]:
    return [
        Point(
            "make_approximate",
            f"dp.c.make_approximate({inner(scale, T)})",
            numeric_d_ins(T, quick),
            search="",
        )
        for inner in (_laplace_code, _gaussian_code)
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for T in (("f64",) if quick else ("f64", "i32"))
    ]


@register("make_fixed_approxDP_to_approxDP", "combinator")
def _fixed_approx_points(quick: bool) -> list[Point]:
    fixed = [
        f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP({_gaussian_code(scale)}), {delta!r})"
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for delta in (_DELTAS[1:2] if quick else _DELTAS)
    ]
    pure = [
        f"dp.c.make_approximate({_laplace_code(scale)})"
        for scale in (_QUICK_SCALES if quick else _SCALES)
    ]
    return [
        Point(
            "make_fixed_approxDP_to_approxDP",
            f"dp.c.make_fixed_approxDP_to_approxDP({inner})",
            numeric_d_ins("f64", True),
            search="",
            deltas=_DELTAS[1:3] if quick else _DELTAS,
        )
        for inner in fixed + pure
    ]


def _clamp_sum_code(T: str, bounds) -> tuple[str, str]:
    """A clamp of ``T`` vectors to ``bounds`` and the sum of its output: the inner and the outer
    transformation of the chain twins."""
    nan = ", nan=False" if T.startswith("f") else ""
    space = f"dp.vector_domain(dp.atom_domain(T={T!r}{nan})), dp.symmetric_distance()"
    clamp = f"dp.t.make_clamp({space}, bounds={bounds!r})"
    return clamp, f"dp.t.make_sum(*{clamp}.output_space)"


_CHAIN_CASES = (("f64", (0.0, 10.0)), ("i32", (0, 10)), ("f64", (-1e6, 1e6)))


@register("make_chain_tt", "combinator")
def _chain_tt_points(quick: bool) -> list[Point]:
    found = []
    for T, bounds in _CHAIN_CASES[:1] if quick else _CHAIN_CASES:
        clamp, total = _clamp_sum_code(T, bounds)
        found.append(Point("make_chain_tt", f"dp.c.make_chain_tt({total}, {clamp})", _d_ins(quick)))
    return found


@register("make_chain_mt", "combinator")
def _chain_mt_points(quick: bool) -> list[Point]:
    found = []
    for T, bounds in _CHAIN_CASES[:1] if quick else _CHAIN_CASES:
        clamp, total = _clamp_sum_code(T, bounds)
        inner = f"dp.c.make_chain_tt({total}, {clamp})"
        for scale in _QUICK_SCALES if quick else _SCALES:
            laplace = f"dp.m.make_laplace(*{inner}.output_space, {scale!r})"
            code = f"dp.c.make_chain_mt({laplace}, {inner})"
            found.append(Point("make_chain_mt", code, _d_ins(quick), search=""))
    return found


@register("make_chain_pm", "combinator")
def _chain_pm_points(quick: bool) -> list[Point]:
    return [
        Point(
            "make_chain_pm",
            f"dp.c.make_chain_pm(dp.new_function(lambda y: y, TO=float), {inner(scale, T)})",
            numeric_d_ins(T, quick),
            search="",
        )
        for inner in (_laplace_code, _gaussian_code)
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for T in (("f64",) if quick else ("f64", "i32"))
    ]


# -- ingest: texts, lines and fields --------------------------------------------------------------
@register("make_split_lines", "transformation")
def _split_lines_points(quick: bool) -> list[Point]:
    return [Point("make_split_lines", "dp.t.make_split_lines()", _d_ins(quick))]


@register("make_split_records", "transformation")
def _split_records_points(quick: bool) -> list[Point]:
    # OpenDP 0.16 cannot return a Vec<Vec<String>> to Python: its split_records is observed
    # through its only way out, a dataframe of three columns (fields padded or cut to three)
    # and its second column.  certdp has no dataframe yet, so it builds no oracle here (a note
    # says so); the search runs OpenDP's chain on neighbouring vectors of lines.
    separators = (",",) if quick else (",", "", " ", ", ", "\t", "ab")
    space = "dp.vector_domain(dp.atom_domain(T='String')), dp.symmetric_distance()"
    found = []
    for separator in separators:
        code = (
            f"dp.t.make_split_records({separator!r}) >> dp.t.make_create_dataframe([0, 1, 2])"
            " >> dp.t.make_select_column(1, str)"
        )
        found.append(Point("make_split_records", code, _d_ins(quick), space=space))
    return found


# -- dataframes: every frame step observed through a chain from a text to one column ------------
_TEXT_SPACE = "dp.atom_domain(T='String'), dp.symmetric_distance()"
_FRAME = "dp.t.make_split_dataframe(',', ['a', 'b', 'c'])"


def _frame_points(name: str, chains: tuple, quick: bool) -> list[Point]:
    """Points of a frame step: OpenDP cannot take or return a frame in Python, so each chain
    starts from a text and ends with a selected column."""
    picked = chains[:1] if quick else chains
    return [Point(name, code, _d_ins(quick), space=_TEXT_SPACE) for code in picked]


@register("make_create_dataframe", "transformation")
def _create_dataframe_points(quick: bool) -> list[Point]:
    head = "dp.t.make_split_lines() >> dp.t.make_split_records(',') >> "
    chains = tuple(
        f"{head}dp.t.make_create_dataframe({names!r}) >> dp.t.make_select_column({key!r}, str)"
        for names, key in ((["a", "b"], "b"), (["a", "a", "b"], "a"), ([0, 1, 2, 3], 3))
    )
    return _frame_points("make_create_dataframe", chains, quick)


@register("make_split_dataframe", "transformation")
def _split_dataframe_points(quick: bool) -> list[Point]:
    chains = tuple(
        f"dp.t.make_split_dataframe({sep!r}, ['a', 'b']) >> dp.t.make_select_column('b', str)"
        for sep in (",", "", " ", "ab")
    )
    return _frame_points("make_split_dataframe", chains, quick)


@register("make_select_column", "transformation")
def _select_column_points(quick: bool) -> list[Point]:
    chains = tuple(f"{_FRAME} >> dp.t.make_select_column({key!r}, str)" for key in "acb")
    return _frame_points("make_select_column", chains, quick)


@register("make_df_cast_default", "transformation")
def _df_cast_default_points(quick: bool) -> list[Point]:
    chains = tuple(
        f"{_FRAME} >> dp.t.then_df_cast_default('a', str, {TOA}) >> "
        f"dp.t.make_select_column('a', {TOA})"
        for TOA in ("int", "float", "bool")
    )
    return _frame_points("make_df_cast_default", chains, quick)


@register("make_df_is_equal", "transformation")
def _df_is_equal_points(quick: bool) -> list[Point]:
    chains = tuple(
        f"{_FRAME} >> dp.t.then_df_is_equal('b', {value!r}) >> dp.t.make_select_column('b', bool)"
        for value in ("1", "", "x")
    )
    return _frame_points("make_df_is_equal", chains, quick)


@register("make_subset_by", "transformation")
def _subset_by_points(quick: bool) -> list[Point]:
    chains = tuple(
        f"{_FRAME} >> dp.t.then_df_is_equal('b', '1') >> dp.t.make_subset_by('b', {keep!r})"
        f" >> dp.t.make_select_column({keep[0]!r}, str)"
        for keep in (["a"], ["c", "a"])
    )
    return _frame_points("make_subset_by", chains, quick)


def _threshold_space(T: str, D: str | None = None, p: int = 1) -> str:
    """Maps from strings to ``T`` under ``l0{p}inf_distance(absolute_distance(D))``."""
    domain = f"dp.map_domain(dp.atom_domain(T='String'), dp.atom_domain(T={T!r}))"
    return f"{domain}, dp.l0{p}inf_distance(dp.absolute_distance(T={(D or T)!r}))"


_THRESHOLD_D_INS = ((0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 1, 1), (2, 5, 1), (2, 5, 3), (1, 3, 6))


@register("make_laplace_threshold", "measurement")
def _laplace_threshold_points(quick: bool) -> list[Point]:
    found = []
    types = (
        (("i32", None),) if quick else (("i32", None), ("i64", None), ("u32", None), ("i32", "f64"))
    )
    for T, D in types:
        for scale in (1.0,) if quick else (0.0, 0.5, 1.0, 2.5):
            for threshold in (5,) if quick else (1, 5, 14, -3):
                if threshold < 0 and T.startswith("u"):
                    continue
                code = f"dp.m.make_laplace_threshold({_threshold_space(T, D)}, {scale!r}, {threshold!r})"
                noisy = (T, D, scale, threshold) == ("i32", None, 1.0, 5)
                found.append(
                    Point(
                        "make_laplace_threshold",
                        code,
                        _THRESHOLD_D_INS,
                        search="lone-keys",
                        noise=_threshold_noise(T, scale) if noisy else None,
                        threshold=(scale, threshold, "laplace"),
                    )
                )
    return found


def _threshold_noise(T: str, scale: float) -> Noise:
    """The release's own noise: every value is 1000 above a threshold of 0 (a key is dropped
    with probability below e^-999 at scale 1), and the released values minus 1000 are draws."""
    release = f"dp.m.make_laplace_threshold({_threshold_space(T)}, {scale!r}, 0)"
    sampler = (
        f"(lambda m: lambda xs: [v - 1000 for v in m({{str(i): 1000 + x for i, x in "
        f"enumerate(xs)}}).values()])({release})"
    )
    return Noise("laplace", T, scale, sampler)


@register("make_geometric", "measurement")
def _geometric_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32",) if quick else ("i8", "i32", "i64", "u32"):
        for vector in (False, True):
            space = _numeric_space(T, vector)
            for scale in _QUICK_SCALES if quick else _SCALES:
                for bounds in (None,) if quick else (None, (0, 10)):
                    extra = "" if bounds is None else f", bounds={bounds!r}"
                    code = f"dp.m.make_geometric({space}, {scale!r}{extra})"
                    noisy = vector and bounds is None and scale == _QUICK_SCALES[0] and T == "i32"
                    noise = None
                    if noisy:
                        sampler = f"dp.m.make_geometric({space}, {scale!r})"
                        noise = Noise("laplace", T, scale, sampler)
                    found.append(
                        Point(
                            "make_geometric",
                            code,
                            numeric_d_ins(T, quick),
                            search="",
                            noise=noise,
                        )
                    )
    return found


@register("make_noise", "measurement")
def _noise_points(quick: bool) -> list[Point]:
    found = []
    measures = {"laplace": "dp.max_divergence()", "gaussian": "dp.zero_concentrated_divergence()"}
    for kind, measure in measures.items():
        for T in ("i32",) if quick else ("i32", "i64", "f64"):
            for vector in (False,) if quick else (False, True):
                space = _numeric_space(T, vector, l2=kind == "gaussian")
                for scale in _QUICK_SCALES if quick else _SCALES:
                    code = f"dp.m.make_noise({space}, {measure}, {scale!r})"
                    noisy = T == "i32" and not vector and scale == _QUICK_SCALES[0]
                    noise = None
                    if noisy:
                        vector_space = _numeric_space(T, True, l2=kind == "gaussian")
                        sampler = f"dp.m.make_noise({vector_space}, {measure}, {scale!r})"
                        noise = Noise(kind, T, scale, sampler)
                    found.append(
                        Point("make_noise", code, numeric_d_ins(T, quick), search="", noise=noise)
                    )
    return found


@register("make_noise_threshold", "measurement")
def _noise_threshold_points(quick: bool) -> list[Point]:
    found = []
    # the Gaussian's thresholds are nearer: its tail falls faster, and a lone key must survive
    # often enough for the reproducer's 40000 draws to show the under-counted delta
    for kind, measure, p, near in (
        ("laplace", "dp.approximate(dp.max_divergence())", 1, 5),
        ("gaussian", "dp.approximate(dp.zero_concentrated_divergence())", 2, 3),
    ):
        found += _noise_threshold_measure_points(quick, kind, measure, p, near)
    return found


def _noise_threshold_measure_points(
    quick: bool, kind: str, measure: str, p: int, near: int
) -> list[Point]:
    found = []
    for T in ("i32",) if quick else ("i32", "i64"):
        for scale in (1.0,) if quick else (0.5, 1.0, 2.5):
            for threshold in (near,) if quick else (1, near, -3):
                space = _threshold_space(T, p=p)
                code = f"dp.m.make_noise_threshold({space}, {measure}, {scale!r}, {threshold!r})"
                noisy = (T, scale, threshold) == ("i32", 1.0, near)
                noise = None
                if noisy:
                    release = f"dp.m.make_noise_threshold({space}, {measure}, {scale!r}, 0)"
                    sampler = (
                        f"(lambda m: lambda xs: [v - 1000 for v in m({{str(i): 1000 + x for i, x "
                        f"in enumerate(xs)}}).values()])({release})"
                    )
                    noise = Noise(kind, T, scale, sampler)
                found.append(
                    Point(
                        "make_noise_threshold",
                        code,
                        _THRESHOLD_D_INS,
                        search="lone-keys",
                        noise=noise,
                        threshold=(scale, threshold, kind),
                    )
                )
    return found


@register("make_gaussian_threshold", "measurement")
def _gaussian_threshold_points(quick: bool) -> list[Point]:
    found = []
    types = (
        (("i32", None),) if quick else (("i32", None), ("i64", None), ("u32", None), ("i32", "f64"))
    )
    for T, D in types:
        for scale in (1.0,) if quick else (0.0, 0.5, 1.0, 2.5):
            for threshold in (3,) if quick else (1, 3, 14, -3):
                if threshold < 0 and T.startswith("u"):
                    continue
                space = _threshold_space(T, D, p=2)
                code = f"dp.m.make_gaussian_threshold({space}, {scale!r}, {threshold!r})"
                noise = None
                if (T, D, scale, threshold) == ("i32", None, 1.0, 3):
                    release = (
                        f"dp.m.make_gaussian_threshold({_threshold_space(T, p=2)}, {scale!r}, 0)"
                    )
                    sampler = (
                        f"(lambda m: lambda xs: [v - 1000 for v in m({{str(i): 1000 + x for i, x "
                        f"in enumerate(xs)}}).values()])({release})"
                    )
                    noise = Noise("gaussian", T, scale, sampler)
                found.append(
                    Point(
                        "make_gaussian_threshold",
                        code,
                        _THRESHOLD_D_INS,
                        search="lone-keys",
                        noise=noise,
                        threshold=(scale, threshold, "gaussian"),
                    )
                )
    return found


# -- metric changes on datasets (small21) --------------------------------------------------------
def _metric_change_points(name: str, metrics: tuple, sizes, quick: bool) -> list[Point]:
    found = []
    for T in ("i32",) if quick else ("i32", "f64", "String"):
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T == "f64" else _plain_atom(T)
        for size in sizes:
            for metric in metrics:
                code = f"dp.t.{name}({_vector(element, size)}, dp.{metric}())"
                found.append(Point(name, code, _d_ins(quick)))
    return found


@register("make_metric_bounded", "transformation")
def _metric_bounded_points(quick: bool) -> list[Point]:
    metrics = ("symmetric_distance", "insert_delete_distance")
    return _metric_change_points("make_metric_bounded", metrics, (3,) if quick else (1, 3), quick)


@register("make_metric_unbounded", "transformation")
def _metric_unbounded_points(quick: bool) -> list[Point]:
    metrics = ("change_one_distance", "hamming_distance")
    sizes = (3,) if quick else (1, 3)
    return _metric_change_points("make_metric_unbounded", metrics, sizes, quick)


@register("make_unordered", "transformation")
def _unordered_points(quick: bool) -> list[Point]:
    metrics = ("insert_delete_distance", "hamming_distance")
    return _metric_change_points("make_unordered", metrics, (None, 3), quick)


@register("make_ordered_random", "transformation")
def _ordered_random_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32",) if quick else ("i32", "f64", "String"):
        element = f"dp.atom_domain(T={T!r}, nan=True)" if T == "f64" else _plain_atom(T)
        for size in (None, 3):
            for metric in ("symmetric_distance", "change_one_distance"):
                code = f"dp.t.make_ordered_random({_vector(element, size)}, dp.{metric}())"
                # a random function: a candidate pair stands only with a coupling certificate
                found.append(Point("make_ordered_random", code, _d_ins(quick), search="pairs"))
    return found


#: Distances under the discrete distance: 0 (the same value) and 1 (different values).
_DISCRETE_D_INS = (0, 1)


@register("make_randomized_response_bool", "measurement")
def _randomized_response_bool_points(quick: bool) -> list[Point]:
    probs = (0.75,) if quick else (0.5, 0.75, 0.99, 1 - 2**-53)  # certdp refuses 1 (#22)
    found = []
    for prob in probs:
        code = f"dp.m.make_randomized_response_bool({prob!r})"
        noise = None
        if prob == 0.75:  # a lie is a 1: probability 1 - prob
            sampler = f"(lambda m: lambda xs: [int(not m(True)) for _ in xs])({code})"
            noise = Noise("bernoulli", "bool", 1 - prob, sampler)
        found.append(
            Point("make_randomized_response_bool", code, _DISCRETE_D_INS, search="", noise=noise)
        )
    return found


@register("make_randomized_response", "measurement")
def _randomized_response_points(quick: bool) -> list[Point]:
    found = []
    for categories in (["a", "b", "c"],) if quick else (["a", "b", "c"], [1, 2, 3, 4]):
        for prob in (0.75,) if quick else (0.5, 0.75, 0.99, 1 - 2**-53):  # 1 refused (#22)
            code = f"dp.m.make_randomized_response({categories!r}, {prob!r})"
            noise = None
            if prob == 0.75 and categories[0] == "a":  # another category is a 1: 1 - prob
                sampler = f"(lambda m: lambda xs: [int(m('a') != 'a') for _ in xs])({code})"
                noise = Noise("bernoulli", "String", 1 - prob, sampler)
            found.append(
                Point("make_randomized_response", code, _DISCRETE_D_INS, search="", noise=noise)
            )
    return found


@register("make_randomized_response_bitvec", "measurement")
def _randomized_response_bitvec_points(quick: bool) -> list[Point]:
    """OpenDP 0.16's bitvector_domain has no length; certdp's oracle fixes one (24 bits)."""
    found = []
    for weight in (4,) if quick else (0, 1, 4):
        for f in (0.95,) if quick else (0.25, 0.95, 1.0):
            metric = "dp.discrete_distance()"
            code = (
                f"dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight={weight}), "
                f"{metric}, {f!r})"
            )
            oracle = (
                f"dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight={weight}, "
                f"size=24), {metric}, {f!r})"
            )
            noise = None
            if (weight, f) == (4, 0.95):  # the LAST bit of a byte flips with f / 2 (#2707)
                sampler = f"(lambda m: lambda xs: [m(bytes(1))[0] >> 7 for _ in xs])({code})"
                noise = Noise("bernoulli", "bool", f / 2, sampler)
            found.append(
                Point(
                    "make_randomized_response_bitvec",
                    code,
                    _DISCRETE_D_INS,
                    oracle=oracle,
                    search="bitvec-lengths",
                    noise=noise,
                )
            )
            # the same with a length: what certdp builds (OpenDP 0.16's domain has no size)
            found.append(Point("make_randomized_response_bitvec", oracle, _DISCRETE_D_INS))
    return found


# -- sums of squared deviations and variances: rounding of the mean (OpenDP #2923) ------------
#: (lower, upper, size, T) where one record flips the rounding of the empirical mean.
MEAN_ROUNDING_RECORDS = (
    (2.0**50, 2.0**50 + 1.0, 1024, "f64"),
    (2.0**20, 2.0**20 + 1.0, 1024, "f32"),
)


def _deviation_points(name: str, quick: bool, extra: str = "") -> list[Point]:
    found = []
    for T in ("f64",) if quick else FLOAT_TYPES:
        bounds_list = float_bounds(T, quick)
        combos = [(b, size) for b in bounds_list for size in (1, 16)]
        if not quick:
            combos += [(bounds_list[0], 2), (bounds_list[0], 1000)]
        for bounds, size in combos:
            space = f"{_vector(_atom(bounds, T), size)}, {_metric(False)}"
            found.append(Point(name, f"dp.t.{name}({space}{extra})", _d_ins(quick)))
    for lower, upper, size, T in MEAN_ROUNDING_RECORDS[:1] if quick else MEAN_ROUNDING_RECORDS:
        space = f"{_vector(_atom((lower, upper), T), size)}, {_metric(False)}"
        found.append(
            Point(
                name,
                f"dp.t.{name}({space}{extra})",
                _d_ins(quick),
                search="mean-rounding",
                records=(lower, upper, size, T),
            )
        )
    return found


@register("make_sum_of_squared_deviations", "transformation")
def _ssd_points(quick: bool) -> list[Point]:
    found = _deviation_points("make_sum_of_squared_deviations", quick)
    if not quick:
        found += _deviation_points("make_sum_of_squared_deviations", quick, ", S='Sequential<T>'")
    return found


@register("make_variance", "transformation")
def _variance_points(quick: bool) -> list[Point]:
    found = _deviation_points("make_variance", quick)
    if not quick:
        found += _deviation_points("make_variance", quick, ", ddof=0")
    return found


@register("make_b_ary_tree", "transformation")
def _b_ary_tree_points(quick: bool) -> list[Point]:
    """Integer counts under L1 and L2 (OpenDP 0.16's L2 map is ``d_in * layers``, certdp's
    ``ceil(d_in * sqrt(S))``), with the tree's own pairs (tree_pairs.py): counts next to the
    type's limit (a wrapped branch sum) and, under L2, leaves spread to move many branches."""
    found = []
    cases = (
        [(5, 2), (9, 3), (16, 2)] if quick else [(1, 2), (5, 2), (8, 2), (9, 3), (16, 2), (30, 10)]
    )
    for T in ("i32",) if quick else ("i32", "i64", "u32"):
        for metric in ("l1_distance", "l2_distance"):
            for leaf_count, b in cases:
                space = f"{_vector(_plain_atom(T))}, dp.{metric}(T={T!r})"
                code = f"dp.t.make_b_ary_tree({space}, {leaf_count}, {b})"
                found.append(
                    Point(
                        "make_b_ary_tree",
                        code,
                        (0, 1, 2, 4, 5),
                        search="b-ary-tree",
                        tree=(leaf_count, b, T),
                    )
                )
    return found


@register("make_select_private_candidate", "combinator")
def _select_private_candidate_points(quick: bool) -> list[Point]:
    """A Laplace release read as the pair (score, 1.0); stop_probability > 0 (certdp refuses 0,
    where a run may never end; OpenDP 0.16 accepts it)."""
    scored = "{} >> dp.new_function(lambda s: (s, 1.0), TO='(f64, f64)')"
    settings = ((0.5, 0.0),) if quick else ((0.5, 0.0), (0.01, 5.0), (0.999, -2.5))
    return [
        Point(
            "make_select_private_candidate",
            f"dp.c.make_select_private_candidate({scored.format(_laplace_code(scale))}, "
            f"{stop!r}, {threshold!r})",
            numeric_d_ins("f64", quick),
            search="",
        )
        for scale in (_QUICK_SCALES if quick else _SCALES)
        for stop, threshold in settings
    ]


@register("make_quantile_score_candidates", "transformation")
def _quantile_score_candidates_points(quick: bool) -> list[Point]:
    """Integer scores, known and unknown sizes, exact and approximated alphas (OpenDP 0.16
    and certdp pick the same constants: the crosscheck compares scores and maps)."""
    found = []
    # alpha in the open interval (0, 1) (issue #22): the floats nearest 0 and 1 inside it
    alphas = (0.5, 0.3) if quick else (5e-324, 0.3, 0.5, 1 / 3, 0.99999, 1 - 2**-53)
    for T in ("i32", "f64") if quick else ("i32", "i64", "u32", "u64", "f32", "f64"):
        if T.startswith("f"):
            element, candidates = f"dp.atom_domain(T={T!r}, nan=False)", [-1.5, 0.0, 2.5]
        else:
            element, candidates = _plain_atom(T), [0, 3, 7]
        for size in (None, 16) if quick else (None, 1, 16):
            for ordered in (False, True):
                space = f"{_vector(element, size)}, {_metric(ordered)}"
                for alpha in alphas:
                    code = (
                        f"dp.t.make_quantile_score_candidates({space}, {candidates!r}, {alpha!r})"
                    )
                    found.append(Point("make_quantile_score_candidates", code, _d_ins(quick)))
    return found


@register("make_lipschitz_float_mul", "transformation")
def _lipschitz_float_mul_points(quick: bool) -> list[Point]:
    """f32 and f64; the first case is where OpenDP 0.16 rounds an f32 ``d_in`` down."""
    found = []
    cases = [(24.206945419311523, (-3.601987600326538, 3.601987600326538)), (2.0, (0.0, 10.0))]
    if not quick:
        cases += [(-3.0, (-5.0, 5.0)), (0.0, (0.0, 10.0)), (1.5, (0.0, 1e-40))]
    for T in ("f64",) if quick else FLOAT_TYPES:
        for constant, bounds in cases:
            space = f"dp.atom_domain(T={T!r}, nan=False), dp.absolute_distance(T={T!r})"
            code = f"dp.t.make_lipschitz_float_mul({space}, {constant!r}, {bounds!r})"
            d_ins = (0.0, 1.0, 0.5, 4.909167528152466)
            found.append(Point("make_lipschitz_float_mul", code, d_ins))
    return found


def _selection_space(T: str, monotonic: bool) -> str:
    nan = ", nan=False" if T.startswith("f") else ""
    return (
        f"dp.vector_domain(dp.atom_domain(T={T!r}{nan})), "
        f"dp.linf_distance(T={T!r}, monotonic={monotonic!r})"
    )


def _selection_d_ins(T: str) -> tuple:
    return (0, 1, 3) if T.startswith("i") else (0.0, 0.5, 1.0, 3.0)


#: Noisy-max draws on the scores [1, 0] at scale 1.0: index 1 with probability 1 / (1 + e) under
#: the exponential mechanism (zCDP) and e^-1 / 2 under permute-and-flip (max-divergence).
_SELECTION_BERNOULLI = {
    "dp.zero_concentrated_divergence()": 0.2689414213699951,
    "dp.max_divergence()": 0.18393972058572117,
}


def _selection_noise(code: str, measure: str, first) -> Noise:
    sampler = f"(lambda m: lambda xs: [{first} for _ in xs])({code})"
    return Noise("bernoulli", "i32", _SELECTION_BERNOULLI[measure], sampler)


_SELECTION_MEASURES = ("dp.max_divergence()", "dp.zero_concentrated_divergence()")


@register("make_noisy_top_k", "measurement")
def _noisy_top_k_points(quick: bool) -> list[Point]:
    """OpenDP 0.16's maps are sound for the algorithms it runs (peeled permute-and-flip for the
    max-divergence, the peeled exponential mechanism for zCDP): the maps are compared."""
    found = []
    for T in ("i32",) if quick else ("i32", "i64", "f64"):
        for monotonic in (False, True):
            for measure in _SELECTION_MEASURES:
                for k in (1, 2) if quick else (1, 2, 5):
                    for scale in (1.0,) if quick else (0.5, 1.0, 3.0):
                        space = _selection_space(T, monotonic)
                        code = f"dp.m.make_noisy_top_k({space}, {measure}, {k}, {scale!r})"
                        noise = None
                        if (T, monotonic, k, scale) == ("i32", False, 1, 1.0):
                            noise = _selection_noise(code, measure, "m([1, 0])[0]")
                        found.append(
                            Point(
                                "make_noisy_top_k",
                                code,
                                _selection_d_ins(T),
                                search="",
                                noise=noise,
                            )
                        )
    return found


@register("make_noisy_max", "measurement")
def _noisy_max_points(quick: bool) -> list[Point]:
    found = []
    for T in ("i32",) if quick else ("i32", "f64"):
        for monotonic in (False, True):
            for measure in _SELECTION_MEASURES:
                for scale in (1.0,) if quick else (0.5, 1.0, 3.0):
                    space = _selection_space(T, monotonic)
                    code = f"dp.m.make_noisy_max({space}, {measure}, {scale!r})"
                    noise = None
                    if (T, monotonic, scale) == ("i32", False, 1.0):
                        noise = _selection_noise(code, measure, "m([1, 0])")
                    found.append(
                        Point("make_noisy_max", code, _selection_d_ins(T), search="", noise=noise)
                    )
    return found


@register("make_report_noisy_max_gumbel", "measurement")
def _report_noisy_max_gumbel_points(quick: bool) -> list[Point]:
    """OpenDP 0.16 reads ``optimize`` as certdp does ("max" releases the maximum); the maps agree."""
    found = []
    for T in ("i32",) if quick else ("i32", "f64"):
        for monotonic in (False, True):
            for scale in (1.0,) if quick else (0.5, 1.0, 3.0):
                space = _selection_space(T, monotonic)
                code = f"dp.m.make_report_noisy_max_gumbel({space}, {scale!r})"
                noise = None
                if (T, monotonic, scale) == ("i32", False, 1.0):
                    # scores [1, 0] (max-divergence): index 1 with probability e^-1 / 2 when
                    # "max" releases the maximum, 1 - e^-1 / 2 if it released the minimum
                    noise = _selection_noise(code, "dp.max_divergence()", "m([1, 0])")
                found.append(
                    Point(
                        "make_report_noisy_max_gumbel",
                        code,
                        _selection_d_ins(T),
                        search="",
                        noise=noise,
                    )
                )
    return found


#: Private-quantile draws on the data [0, 10, 10] with candidates [0, 10], alpha 0.5, scale 1.0
#: and no size: scores [2, 1], noise scale 2; candidate 0 with probability 1 / (1 + e^0.5) under
#: the exponential mechanism (zCDP) and e^-0.5 / 2 under permute-and-flip (max-divergence).
_QUANTILE_BERNOULLI = {
    "dp.zero_concentrated_divergence()": 0.3775406687981454,
    "dp.max_divergence()": 0.3032653298563167,
}


@register("make_private_quantile", "measurement")
def _private_quantile_points(quick: bool) -> list[Point]:
    """The chain of the scores and noisy max (negated) with noise scale ``scale * den``, known
    and unknown sizes, exact and approximated alphas, integer and float candidates (OpenDP 0.16's
    map rounds up step by step, certdp's once: the maps are compared)."""
    found = []
    alphas = (0.5, 0.3) if quick else (5e-324, 0.3, 0.5, 1 - 2**-53)  # (0, 1) open: #22
    for T in ("i32", "f64") if quick else ("i32", "i64", "f32", "f64"):
        if T.startswith("f"):
            element, candidates = f"dp.atom_domain(T={T!r}, nan=False)", [-1.5, 0.0, 2.5]
        else:
            element, candidates = _plain_atom(T), [0, 3, 7]
        for size in (None, 16) if quick else (None, 1, 16):
            for ordered in (False, True):
                space = f"{_vector(element, size)}, {_metric(ordered)}"
                for measure in _SELECTION_MEASURES:
                    for alpha in alphas:
                        code = (
                            f"dp.m.make_private_quantile({space}, {measure}, {candidates!r}, "
                            f"{alpha!r}, 1.0)"
                        )
                        noise = None
                        if (T, size, ordered, alpha) == ("i32", None, False, 0.5):
                            sampler = (
                                f"(lambda m: lambda xs: [int(m([0, 10, 10]) == 0) for _ in xs])"
                                f"(dp.m.make_private_quantile({space}, {measure}, [0, 10], "
                                "0.5, 1.0))"
                            )
                            noise = Noise("bernoulli", "i32", _QUANTILE_BERNOULLI[measure], sampler)
                        found.append(
                            Point(
                                "make_private_quantile", code, _d_ins(quick), search="", noise=noise
                            )
                        )
    return found


# -- postprocessors (Functions: no map; their outputs are compared bit for bit) ---------------


@register("make_cdf", "function")
def _cdf_points(quick: bool) -> list[Point]:
    """Counts with zeros, a cancelling total (NaN, infinities), tiny and huge values."""
    inputs = (
        [1.0, 2.0, 3.0], [0.0, 0.0, 5.0], [0.1, 0.2, 0.3, 0.4], [1.0, -1.0], [5e-324, 1.0],
        [1e308, 1e308], [-2.0, 7.5, 0.25], [0.0],
    )  # fmt: skip
    return [
        Point("make_cdf", f"dp.t.make_cdf(TA={TA!r})", (), search="", inputs=inputs)
        for TA in (("f64",) if quick else ("f32", "f64"))
    ]


@register("make_consistent_b_ary_tree", "function")
def _consistent_b_ary_tree_points(quick: bool) -> list[Point]:
    """Full and partial trees, negative counts, b = 2, 3, 4."""
    inputs = (
        [1], [1, 2], [5, 2, 3], [10, 4, 3, 2, 2], [10, 4, 3, 2, 2, 1, 1], [-10, 4, -3, 2, 2, 1, 1],
        [10, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1], [100, 20, 70, 7, 12, 40, 33],
    )  # fmt: skip
    found = []
    for b in (2, 3) if quick else (2, 3, 4):
        for TOA in ("f64",) if quick else ("f32", "f64"):
            code = f"dp.t.make_consistent_b_ary_tree({b}, TOA={TOA!r})"
            found.append(Point("make_consistent_b_ary_tree", code, (), search="", inputs=inputs))
    return found


@register("make_quantiles_from_counts", "function")
def _quantiles_from_counts_points(quick: bool) -> list[Point]:
    """Float and integer edges, both interpolations, alphas at 0 and 1, zero counts."""
    found = []
    cases = (
        ([0.0, 1.0, 2.5, 10.0], ([1.0, 2.0, 3.0], [0.0, 0.0, 5.0], [5.0, 0.0, 0.0], [0.1, 0.2, 0.3])),
        ([0, 10, 20, 30], ([1, 2, 3], [0, 4, 4], [7, 0, 1])),
    )  # fmt: skip
    for edges, inputs in cases:
        for interpolation in ("linear", "nearest"):
            for alphas in ([0.5],) if quick else ([0.5], [0.0, 0.25, 0.75, 1.0]):
                code = (
                    f"dp.t.make_quantiles_from_counts({edges!r}, alphas={alphas!r}, "
                    f"interpolation={interpolation!r})"
                )
                found.append(Point("make_quantiles_from_counts", code, (), search="",
                                   inputs=inputs))  # fmt: skip
    return found


# -- float-valued thresholded releases (thresh21, #21) --------------------------------------------
_FLOAT_THRESHOLD_D_INS = ((0, 0.0, 0.0), (1, 0.0, 0.0), (1, 1.0, 1.0), (2, 1.5, 1.0), (3, 0.3, 0.2))


def _float_threshold_points(name: str, p: int, quick: bool) -> list[Point]:
    """Maps of float values: the grid ``2^k`` (``k`` None, -10, 0, 2), f64 and f32, compared
    with OpenDP's map at float distances (no pair search: the values are not integers)."""
    found = []
    for T in ("f64",) if quick else ("f64", "f32"):
        for k in (None, 0) if quick else (None, -10, 0, 2):
            for scale, threshold in ((1.0, 10.0),) if quick else ((1.0, 10.0), (2.5, 20.0)):
                values = f"dp.atom_domain(T={T!r}, nan=False)"
                domain = f"dp.map_domain(dp.atom_domain(T='String'), {values})"
                space = f"{domain}, dp.l0{p}inf_distance(dp.absolute_distance(T={T!r}))"
                code = f"dp.m.{name}({space}, {scale!r}, {threshold!r}, k={k!r})"
                found.append(Point(name, code, _FLOAT_THRESHOLD_D_INS, search=""))
    return found


def _with_float_points(name: str, p: int) -> None:
    integer = TWINS[name].points
    TWINS[name] = Twin(
        name,
        TWINS[name].kind,
        lambda quick: integer(quick) + _float_threshold_points(name, p, quick),
    )


_with_float_points("make_laplace_threshold", 1)
_with_float_points("make_gaussian_threshold", 2)
