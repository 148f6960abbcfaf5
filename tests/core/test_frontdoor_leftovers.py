"""Issue 20, the front door's OpenDP-compatibility leftovers: each behaviour is OpenDP 0.16's
(checked against the installed opendp when the tests were written), or a typed refusal."""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, FeatureNotEnabledError

VEC_F64 = dp.vector_domain(dp.atom_domain(T="f64", nan=False))


def _laplace_then_clamp():
    measurement = dp.m.make_laplace(VEC_F64, dp.l1_distance(T="f64"), scale=1.0)
    clamp = dp.t.make_clamp(VEC_F64, dp.symmetric_distance(), bounds=(0.0, 1.0))
    return measurement, clamp


def test_measurement_then_transformation_needs_no_honest_but_curious():
    # OpenDP 0.16: ``m >> t`` hands ``t.function`` to make_chain_pm, under "contrib" alone
    dp.enable_features("contrib")
    measurement, clamp = _laplace_then_clamp()
    chained = measurement >> clamp
    assert isinstance(chained, dp.Measurement)
    assert chained.map(1.0) == measurement.map(1.0) == 1.0
    assert chained.output_measure == measurement.output_measure
    release = chained([5.0, 0.5, -3.0])
    assert len(release) == 3 and all(0.0 <= value <= 1.0 for value in release)


def test_measurement_then_transformation_refuses_a_release_outside_its_domain():
    # a deliberate difference: OpenDP runs t.function on any release; certdp admits it first
    dp.enable_features("contrib")
    measurement = dp.m.make_laplace(VEC_F64, dp.l1_distance(T="f64"), scale=1.0)
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    chained = measurement >> count
    with pytest.raises(FailedFunctionError, match="postprocessing function raised"):
        chained([1.0])


def test_measurement_then_other_callable_still_needs_honest_but_curious():
    dp.enable_features("contrib")
    measurement, _ = _laplace_then_clamp()
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> (lambda release: release)


def test_a_transformation_whose_input_domain_was_reassigned_needs_honest_but_curious():
    dp.enable_features("contrib")
    measurement, clamp = _laplace_then_clamp()
    clamp.input_domain = dp.vector_domain(dp.atom_domain(T="f64"))
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> clamp


def _laplace_and_identity():
    domain, metric = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
    return dp.m.make_laplace(domain, metric, scale=1.0), dp.t.make_identity(domain, metric)


def _shadow_invoke(t):
    t.invoke = lambda release: ("not t's function", release)


def _shadow_admit(t):
    t._admit = lambda release: "replaced admission"


def _replace_function(t):
    t.function = lambda release: "replaced function"


def _replace_output_domain(t):
    t.output_domain = dp.atom_domain(T="f64")


def _replace_input_metric(t):
    t.input_metric = dp.absolute_distance(T="f64")


def _replace_postcondition(t):
    class Hostile:
        def check_output(self, built, arg, answer):
            answer.append("mutated")

    t.postcondition = Hostile()


class _Subclass(dp.Transformation):
    pass


def _subclass(t):
    t.__class__ = _Subclass


@pytest.mark.parametrize(
    "change",
    [
        _shadow_invoke,
        _shadow_admit,
        _replace_function,
        _replace_output_domain,
        _replace_input_metric,
        _replace_postcondition,
        _subclass,
    ],
)
def test_a_transformation_changed_after_it_was_built_needs_honest_but_curious(change):
    # reffront F1: the class's invoke runs on a copy, so an instance attribute that replaces a
    # method, or any attribute it reads, makes the transformation "any callable"
    dp.enable_features("contrib")
    measurement, identity = _laplace_and_identity()
    change(identity)
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> identity


def test_a_chain_whose_part_was_changed_needs_honest_but_curious():
    dp.enable_features("contrib")
    measurement, first = _laplace_and_identity()
    second = dp.t.make_identity(first.output_domain, first.output_metric)
    chain = first >> second
    assert (measurement >> chain)(1.0) != "part replaced"  # kept as built: no feature needed
    second.function = lambda release: "part replaced"
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> chain


@pytest.mark.parametrize("chained", [False, True])
def test_changes_after_rshift_do_not_reach_the_postprocessing(chained):
    # the transformation is copied when >> runs (OpenDP also captures t.function then)
    dp.enable_features("contrib")
    measurement, identity = _laplace_and_identity()
    parts = [identity]
    if chained:
        parts.append(dp.t.make_identity(identity.output_domain, identity.output_metric))
        identity = parts[0] >> parts[1]
    released = measurement >> identity
    for part in parts + [identity]:
        part.function = lambda release: "after"
        part.invoke = lambda release: "after"
        part._admit = lambda release: "after"
    value = released(1.0)
    assert type(value) is float and value != "after"


def test_a_contract_postcondition_is_kept_as_built():
    from certdp.core import switches

    dp.enable_features("contrib")
    previous = switches.contracts.enabled
    switches.contracts.enabled = True
    try:
        measurement, identity = _laplace_and_identity()
        assert identity.postcondition is not None
        assert type((measurement >> identity)(1.0)) is float
    finally:
        switches.contracts.enabled = previous


def _contracts_on():
    from certdp.core import switches

    previous = switches.contracts.enabled
    switches.contracts.enabled = True
    return switches, previous


def test_a_chain_of_contract_checked_parts_is_kept_as_built():
    dp.enable_features("contrib")
    switches, previous = _contracts_on()
    try:
        measurement, first = _laplace_and_identity()
        second = dp.t.make_identity(first.output_domain, first.output_metric)
        assert first.postcondition is not None and second.postcondition is not None
        assert type((measurement >> (first >> second))(1.0)) is float
    finally:
        switches.contracts.enabled = previous


def test_a_postcondition_not_attached_by_the_machinery_needs_honest_but_curious():
    # reffront2 G2: only the very postcondition the contract wrapper attached is kept
    from certdp.contracts.contract import Postcondition

    dp.enable_features("contrib")
    seen = []
    measurement, built_off = _laplace_and_identity()  # contracts off: no postcondition
    made = Postcondition(None, None)
    made.check_output = lambda built, arg, answer: seen.append(answer)
    built_off.postcondition = made
    switches, previous = _contracts_on()
    try:
        _, other = _laplace_and_identity()  # its postcondition is the machinery's, for `other`
        _, borrower = _laplace_and_identity()
        borrower.postcondition = other.postcondition
        for t in (built_off, borrower):
            with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
                measurement >> t
    finally:
        switches.contracts.enabled = previous
    assert seen == []


def test_a_non_plain_instance_dictionary_needs_honest_but_curious():
    # reffront2 G1: a dict subclass as __dict__ hiding _admit from the check
    dp.enable_features("contrib")
    measurement, identity = _laplace_and_identity()

    class Liar(dict):
        def __contains__(self, name):
            return name not in ("invoke", "_admit") and dict.__contains__(self, name)

    identity.__dict__ = Liar(identity.__dict__)
    identity._admit = lambda release: "user code"
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> identity


def test_a_key_that_is_not_exactly_a_str_needs_honest_but_curious():
    # reffront2 G1: a str-subclass key whose equality is switched on after >>
    dp.enable_features("contrib")
    measurement, identity = _laplace_and_identity()

    class Key(str):
        armed = False

        def __hash__(self):
            return str.__hash__(self)

        def __eq__(self, other):
            return Key.armed and str.__eq__(self, other)

    identity.__dict__[Key("_admit")] = lambda release: "user code"
    try:
        with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
            measurement >> identity
    finally:
        Key.armed = False


def test_the_copy_holds_only_the_recorded_parts():
    # the copy is built from the record, so an extra attribute of t is not carried to it
    dp.enable_features("contrib")
    measurement, identity = _laplace_and_identity()
    identity.extra = "not carried"
    released = measurement >> identity
    function = released._tower.functions[-1]
    copy = function._callback.args[0]
    assert copy is not identity and "extra" not in copy.__dict__
    assert copy.function is identity.function and copy.input_domain is identity.input_domain
    assert type(released(1.0)) is float


# --- dp.RuntimeType objects wherever a type is expected (OpenDP 0.16 accepts them) ---


def test_domain_metric_and_space_of_take_runtime_type_objects():
    parse = dp.RuntimeType.parse
    assert dp.domain_of(parse("Vec<f64>")) == dp.vector_domain(dp.atom_domain(T="f64"))
    assert dp.domain_of(parse("Option<f64>")) == dp.option_domain(dp.atom_domain(T="f64"))
    assert dp.domain_of(parse("HashMap<String, i32>")) == dp.map_domain(
        dp.atom_domain(T="String"), dp.atom_domain(T="i32")
    )
    assert dp.metric_of(parse("L1Distance<f64>")) == dp.l1_distance(T="f64")
    assert dp.space_of(parse("Vec<i32>")) == (
        dp.vector_domain(dp.atom_domain(T="i32")),
        dp.symmetric_distance(),
    )


def test_constructor_type_arguments_take_runtime_type_objects():
    dp.enable_features("contrib", "honest-but-curious")
    summed = dp.t.make_sized_bounded_float_ordered_sum(
        4, (0.0, 1.0), S=dp.RuntimeType.parse("Pairwise<f32>")
    )
    assert summed.output_domain == dp.atom_domain(T="f32", nan=False)
    function = dp.new_function(lambda x: [1, 2], TO=dp.RuntimeType.parse("Vec<f64>"))
    assert function(0) == [1.0, 2.0] and function.TO == "Vec<f64>"


def test_a_runtime_type_naming_no_atom_is_refused_typed():
    # OpenDP 0.16: Type("No match for concrete type Vec<f64>")
    with pytest.raises(dp.DPError, match="Vec<f64>") as caught:
        dp.atom_domain(T=dp.RuntimeType.parse("Vec<f64>"))
    assert caught.value.parameter == "T"


class _Unprintable:
    def __str__(self):
        raise ValueError("no text")


class _Text(str):
    """A str subclass, whose methods could lie about the text."""


def _unprintable():
    return dp.RuntimeType("Vec", [_Unprintable()])  # its __str__ prints each argument


def _printing_a_str_subclass():
    runtime_type = dp.RuntimeType("f64")
    runtime_type.origin = _Text("f64")  # printed as is: no arguments
    return runtime_type


def _printing_no_str():
    runtime_type = dp.RuntimeType("f64")
    runtime_type.origin = 64  # str() then raises TypeError: __str__ returned non-string
    return runtime_type


def _nested_5000_deep():
    # reffront F2: printing recurses once per level, past Python's recursion limit
    runtime_type = "i32"
    for _ in range(5000):
        runtime_type = dp.RuntimeType("Vec", [runtime_type])
    return runtime_type


def _containing_itself():
    runtime_type = dp.RuntimeType("Vec", [])
    runtime_type.args.append(runtime_type)
    return runtime_type


_FRONT_DOORS = [
    (lambda T: dp.atom_domain(T=T), "T"),
    (lambda T: dp.t.make_sized_bounded_float_ordered_sum(4, (0.0, 1.0), S=T), "S"),
    (lambda T: dp.domain_of(T), "T"),
    (lambda T: dp.space_of(T), "T"),
    (lambda T: dp.metric_of(T), "M"),
    (lambda T: dp.new_function(lambda x: x, TO=T), "TO"),
]


@pytest.mark.parametrize(("call", "parameter"), _FRONT_DOORS)
@pytest.mark.parametrize(
    "make",
    [
        _unprintable,
        _printing_a_str_subclass,
        _printing_no_str,
        _nested_5000_deep,
        _containing_itself,
    ],
)
def test_a_runtime_type_that_prints_no_plain_str_is_refused_typed(call, parameter, make):
    dp.enable_features("contrib", "honest-but-curious")
    with pytest.raises(dp.DPError, match="RuntimeType") as caught:
        call(make())
    assert caught.value.parameter == parameter


def _sub_runtime_type(text):
    class _SubRuntimeType(dp.RuntimeType):
        def __str__(self):
            return text

    return _SubRuntimeType("f64")


def _impostor(text):
    class _Impostor:
        """Claims RuntimeType's class; prints a name the parameter takes."""

        __class__ = dp.RuntimeType

        def __str__(self):
            return text

    return _Impostor()


_TAKEN = {"T": "f64", "S": "Pairwise<f64>", "M": "L1Distance<f64>", "TO": "f64"}


@pytest.mark.parametrize(("call", "parameter"), _FRONT_DOORS)
@pytest.mark.parametrize("make", [_sub_runtime_type, _impostor])
def test_only_runtime_type_itself_is_read_as_its_text(call, parameter, make):
    """A subclass or an object claiming the class through ``__class__`` is not read as the
    name it prints, which the parameter takes as a string."""
    dp.enable_features("contrib", "honest-but-curious")
    text = _TAKEN[parameter]
    call(text)  # the printed name itself is taken
    assert isinstance(make(text), dp.RuntimeType)  # what the class claim fools
    with pytest.raises(dp.DPError) as caught:
        call(make(text))
    assert caught.value.parameter == parameter


# --- a float key refused naming the user's argument, not map_domain's key_domain ---


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: dp.domain_of({1.5: 1}, infer=True), "data"),
        (lambda: dp.space_of({1.5: 1}, infer=True), "data"),
        (lambda: dp.domain_of("HashMap<f64, i32>"), "T"),
        (lambda: dp.domain_of(dict[float, int]), "T"),
    ],
)
def test_a_float_key_is_refused_naming_the_users_argument(call, parameter):
    with pytest.raises(dp.DPError, match="keys must be hashable") as caught:
        call()
    assert caught.value.parameter == parameter


# --- a compositor over an L0-Lp-Linf unit: OpenDP 0.16 aborts the process; certdp refuses ---

MAP_F64 = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="f64", nan=False))


@pytest.mark.parametrize("metric", [dp.l01inf_distance, dp.l02inf_distance])
@pytest.mark.parametrize("loss", [dict(epsilon=1.0), dict(rho=1.0)])
def test_a_split_context_over_an_l0pinf_unit_is_refused_typed(metric, loss):
    dp.enable_features("contrib")
    unit = (metric(dp.absolute_distance(T="f64")), (1, 1.0, 1.0))
    with pytest.raises(dp.DPError, match="totally ordered") as caught:
        dp.Context.compositor(
            data={"a": 1.0},
            privacy_unit=unit,
            privacy_loss=dp.loss_of(**loss),
            split_evenly_over=2,
            domain=MAP_F64,
        )
    assert caught.value.parameter == "input_metric"


def test_adaptive_composition_over_an_l0pinf_metric_is_refused_typed():
    dp.enable_features("contrib")
    with pytest.raises(dp.DPError, match="totally ordered") as caught:
        dp.c.make_adaptive_composition(
            MAP_F64,
            dp.l01inf_distance(dp.absolute_distance(T="f64")),
            dp.max_divergence(),
            d_in=(1, 1.0, 1.0),
            d_mids=[1.0],
        )
    assert caught.value.parameter == "input_metric"


# --- RuntimeType.parse: linear in the name's length, nesting bounded with a typed error ---


def _nested(depth: int) -> str:
    return "Vec<" * depth + "f64" + ">" * depth


def test_parse_reads_the_deepest_allowed_name():
    from certdp.core.typenames import MAX_TYPE_NESTING

    parsed = dp.RuntimeType.parse(_nested(MAX_TYPE_NESTING))
    assert str(parsed) == _nested(MAX_TYPE_NESTING)
    assert dp.RuntimeType.parse("Vec<(f64, (i32, String))>") == "Vec<(f64, (i32, String))>"


@pytest.mark.parametrize("depth", [65, 5000, 200_000])
def test_parse_refuses_deeper_names_typed_not_by_recursion(depth):
    # OpenDP 0.16 raises a bare RecursionError from about 250 levels on
    with pytest.raises(dp.UnknownTypeException, match="nested more than 64") as caught:
        dp.RuntimeType.parse(_nested(depth))
    assert caught.value.parameter == "type_name"


def test_parse_refuses_deep_python_descriptors_typed():
    descriptor = float
    for _ in range(100):
        descriptor = list[descriptor]
    with pytest.raises(dp.UnknownTypeException, match="nested more than 64"):
        dp.RuntimeType.parse(descriptor)


# --- 0-d NumPy arrays inside vectors are their one element, as in OpenDP 0.16 ---


@pytest.mark.parametrize(
    ("T", "data", "expected"),
    [
        ("f64", [np.array(1.5)], [1.5]),
        ("f64", (np.array(1.5), 2.0), [1.5, 2.0]),
        ("f64", [np.array(1.5, dtype=np.float32)], [1.5]),
        ("i32", [np.array(1), np.array(7, dtype=np.int32)], [1, 7]),
    ],
)
def test_a_zero_d_array_in_a_vector_is_its_element(T, data, expected):
    domain = dp.vector_domain(dp.atom_domain(T=T))
    assert domain.member(data)
    admitted = domain.admit(data)
    assert list(admitted) == expected
    assert all(type(value) is type(expected[0]) for value in admitted)


def test_a_transformation_reads_zero_d_arrays_in_its_vector_as_opendp_does():
    dp.enable_features("contrib")
    clamp = dp.t.make_clamp(VEC_F64, dp.symmetric_distance(), bounds=(0.0, 1.0))
    assert clamp([np.array(1.5), 0.5]) == [1.0, 0.5]  # OpenDP 0.16: [1.0, 0.5]


@pytest.mark.parametrize(
    "data",
    [
        [np.array(1)],  # an integer is no f64 here (the atom rule; OpenDP refuses it too)
        [np.array([1.5])],  # a 1-d array is no element
        [np.ma.masked_array(1.5)],  # a masked 0-d array is not unwrapped
    ],
)
def test_other_arrays_in_a_vector_are_still_refused(data):
    assert not dp.vector_domain(dp.atom_domain(T="f64")).member(data)


def test_an_option_domain_admits_what_its_element_domain_admits():
    option = dp.option_domain(dp.atom_domain(T="f64"))
    for value in (None, 1.5, np.float64(1.5), np.array(1.5)):
        assert option.member(value)
    assert not option.member(np.array(1))


# --- reprs in OpenDP 0.16's layout (its docs print them: non-adaptive-composition.rst) ---


def test_transformation_measurement_and_odometer_print_as_opendp_does():
    dp.enable_features("contrib")
    summed = dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(0, 1))), dp.symmetric_distance())
    laplace = dp.m.make_laplace(summed.output_domain, summed.output_metric, scale=1.0)
    odometer = dp.c.make_fully_adaptive_composition(
        summed.input_domain, summed.input_metric, dp.max_divergence()
    )
    # the texts OpenDP 0.16 prints for the same three objects
    assert repr(summed) == (
        "Transformation(\n"
        "    input_domain   = VectorDomain(AtomDomain(bounds=[0, 1], T=i32)),\n"
        "    output_domain  = AtomDomain(T=i32),\n"
        "    input_metric   = SymmetricDistance(),\n"
        "    output_metric  = AbsoluteDistance(i32))"
    )
    assert str(laplace) == (
        "Measurement(\n"
        "    input_domain   = AtomDomain(T=i32),\n"
        "    input_metric   = AbsoluteDistance(i32),\n"
        "    output_measure = MaxDivergence)"
    )
    assert repr(odometer) == (
        "Odometer(\n"
        "    input_domain   = VectorDomain(AtomDomain(bounds=[0, 1], T=i32)),\n"
        "    input_metric   = SymmetricDistance(),\n"
        "    output_measure = MaxDivergence)"
    )


# --- reffront F5: a RuntimeType names a type, so only a type parameter takes one ---


def test_a_runtime_type_is_refused_as_a_value_and_read_as_a_type():
    dp.enable_features("contrib")
    strings = dp.vector_domain(dp.atom_domain(T="String"))
    with pytest.raises(dp.DPError, match="type parameter") as caught:
        dp.t.make_count_by_categories(
            strings, dp.symmetric_distance(), categories=[dp.RuntimeType("a"), "b"]
        )
    assert caught.value.parameter == "categories"
    optional = dp.vector_domain(dp.option_domain(dp.atom_domain(T="String")))
    with pytest.raises(dp.DPError, match="type parameter") as caught:
        dp.t.make_impute_constant(optional, dp.symmetric_distance(), constant=dp.RuntimeType("c"))
    assert caught.value.parameter == "constant"
    ints = dp.vector_domain(dp.atom_domain(T="i32"))
    count = dp.t.make_count(ints, dp.symmetric_distance(), TO=dp.RuntimeType("u32"))
    assert count.output_domain == dp.atom_domain(T="u32")


# --- reffront F6: a refused name is not repeated in full ---


def test_a_refused_huge_name_gives_a_short_message():
    text = "x(" * 10 + "y" * 1_000_000
    with pytest.raises(dp.UnknownTypeException) as caught:
        dp.RuntimeType.parse(text)
    message = str(caught.value)
    assert len(message) < 300 and str(len(repr(text))) in message
