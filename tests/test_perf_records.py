"""The speed devices of `spmdfix.perf` that stand in for the standard library's: `record(frozen=True)` and
`frozen` make the frozen guards as closures (`perf._frozen_guards`), which behave as the ones `dataclasses`
compiles (the same errors and messages for a field, for another name, for a subclass; the same values built,
replaced, compared and pickled); `sha256` gives `hashlib`'s digests."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from spmdfix import perf


@perf.record(frozen=True)
class Closed:
    a: int
    b: tuple = ()


@dataclasses.dataclass(frozen=True, slots=True, eq=False, repr=False)
class Compiled:
    a: int
    b: tuple = ()


@perf.record(frozen=True, slots=False)
class ClosedOpen:
    a: int


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class CompiledOpen:
    a: int


class ClosedChild(ClosedOpen):
    pass


class CompiledChild(CompiledOpen):
    pass


def _outcome(action) -> tuple:
    try:
        action()
    except Exception as err:  # noqa: BLE001 - the outcome compared is the exception's type and message
        return type(err), str(err)
    return (None, None)


@pytest.mark.parametrize(
    ("closed", "compiled"), [(Closed(1), Compiled(1)), (ClosedOpen(1), CompiledOpen(1)), (ClosedChild(1), CompiledChild(1))]
)
def test_frozen_guards_made_as_closures_behave_as_the_compiled_ones(closed, compiled) -> None:
    for name in ("a", "b", "other"):
        assert _outcome(lambda: setattr(closed, name, 2)) == _outcome(lambda: setattr(compiled, name, 2)), name
        assert _outcome(lambda: delattr(closed, name)) == _outcome(lambda: delattr(compiled, name)), name
    assert closed.a == compiled.a == 1


def test_a_frozen_record_is_built_replaced_and_pickled_as_before() -> None:
    value = Closed(1, (2,))
    changed = dataclasses.replace(value, b=(3,))
    assert (changed.a, changed.b) == (1, (3,)) and (value.a, value.b) == (1, (2,))
    again = pickle.loads(pickle.dumps(value))
    assert (again.a, again.b) == (1, (2,))
    assert dataclasses.fields(Closed) and Closed.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert Closed.__setattr__.__qualname__ == "Closed.__setattr__"
    assert dataclasses._frozen_get_del_attr is not perf._frozen_guards  # (put back after each record)


@perf.frozen(slots=True, order=True)
class ClosedValue:
    a: int
    b: tuple = ()


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class CompiledValue:
    a: int
    b: tuple = ()


def test_a_frozen_value_keeps_every_generated_method_and_the_same_guards() -> None:
    """`perf.frozen`: equality, hash, order and repr as `dataclasses.dataclass(frozen=True)` gives them."""
    closed, compiled = ClosedValue(1, (2,)), CompiledValue(1, (2,))
    assert closed == ClosedValue(1, (2,)) and hash(closed) == hash(compiled) == hash(ClosedValue(1, (2,)))
    assert sorted([ClosedValue(2), closed]) == [closed, ClosedValue(2)]
    assert repr(closed).replace("ClosedValue", "X") == repr(compiled).replace("CompiledValue", "X")
    for name in ("a", "b", "other"):
        assert _outcome(lambda: setattr(closed, name, 2)) == _outcome(lambda: setattr(compiled, name, 2)), name
        assert _outcome(lambda: delattr(closed, name)) == _outcome(lambda: delattr(compiled, name)), name
    assert ClosedValue.__dataclass_params__.frozen and ClosedValue.__dataclass_params__.order  # type: ignore[attr-defined]


def test_the_cache_keys_sha256_is_hashlibs() -> None:
    """`perf.sha256` (the built-in SHA-256 module, without OpenSSL's import) gives `hashlib.sha256`'s digests."""
    import hashlib

    for data in (b"", b"spmdfix", bytes(range(256)) * 1000):
        assert perf.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
        grown = perf.sha256()
        grown.update(data)
        assert grown.digest() == hashlib.sha256(data).digest()


def _both(**options):
    """The same class declared with `perf.frozen` and with `dataclasses.dataclass(frozen=True)`, for each shape."""

    def declare(decorate):
        @decorate
        class Zero:
            pass

        @decorate
        class One:
            a: object

        @decorate
        class Three:
            a: object
            b: object = dataclasses.field(default=0, compare=False)
            c: object = dataclasses.field(default=(), repr=False)

        return Zero, One, Three

    return declare(perf.frozen(**options)), declare(dataclasses.dataclass(frozen=True, **options))


@pytest.mark.parametrize("options", [{}, {"slots": True}, {"slots": True, "order": True}, {"order": True}])
def test_a_frozen_values_closures_compare_hash_and_print_as_the_compiled_methods(options) -> None:
    """`perf.frozen`'s `__eq__`, order methods, `__hash__` and `__repr__` (closures: `perf._compare`, `_hash`,
    `_repr`) against dataclasses' compiled ones, on classes of no field, one, and three with a field left out
    of comparing and one left out of the repr; NaN kept by identity, as the tuples of the compiled ones do."""
    closed, compiled = _both(**options)
    nan = float("nan")
    argsets = {0: [()], 1: [(1,), (2,), (nan,), ((1, [2]),)], 3: [(1, 2, 3), (1, 5, 3), (2, 0, ()), (nan, 1, 2)]}
    for mine, theirs, arity in zip(closed, compiled, (0, 1, 3)):
        cases = argsets[arity]
        for x in cases:
            for y in cases:
                a, b, c, d = mine(*x), mine(*y), theirs(*x), theirs(*y)
                assert (a == b) == (c == d) and (a != b) == (c != d), (x, y)
                assert a.__eq__(object()) is c.__eq__(object()) is NotImplemented
                if options.get("order"):
                    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
                        assert _outcome(lambda: getattr(a, op)(b)) == _outcome(lambda: getattr(c, op)(d)), (op, x, y)
                        assert getattr(a, op)(object()) is NotImplemented
            value, other = mine(*x), theirs(*x)
            assert _outcome(lambda: hash(value)) == _outcome(lambda: hash(other)), x
            assert repr(value) == repr(other).replace(type(other).__qualname__, type(value).__qualname__)
        assert mine.__eq__.__qualname__.endswith(".__eq__") and mine.__hash__.__qualname__.endswith(".__hash__")
