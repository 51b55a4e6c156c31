"""The speed devices, each behind one name: what spmdfix does only to be fast, never to decide anything.

None of these changes a result; each one's cost and saving is measured in bench/README.md, and each can be
taken out by making it do nothing:

- `record`: the dataclass policy of the records nothing compares or prints (no generated `__eq__`,
  `__repr__`, `__hash__`); `record(frozen=True)` and `frozen` (a frozen value) make the frozen guards and
  the value's comparisons, hash and repr as closures, where `dataclasses` compiles them for each class;
- `gc_paused`: the cyclic garbage collector off around work that makes many objects and no garbage cycle
  (imports, parsing and indexing, loading the results cache);
- `retain_trees` / `retain_tree`: a worker process keeps the `ast` trees it parsed instead of freeing them,
  and `freeze_alive` moves long-lived objects out of the collector's reach;
- `keep_freed_memory`: the C allocator keeps the memory freed by one parse for the next, instead of handing
  it back to the kernel (whose fresh pages each cost a page fault);
- `sha256`: SHA-256 without OpenSSL's import, for the results cache's keys;
- `leave`: the console script ends with `os._exit` once its output is flushed, without the interpreter's
  teardown.

Imports nothing of spmdfix (the CLI imports it before click): everything may use it.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
from typing import TYPE_CHECKING, Any, dataclass_transform

if TYPE_CHECKING:
    import ast
    from collections.abc import Iterator


# --- records ------------------------------------------------------------------------------------------


@dataclass_transform(eq_default=False)
def record(cls: type | None = None, /, *, frozen: bool = False, slots: bool = True):
    """`dataclasses.dataclass` for a record that nothing compares, hashes or prints: `eq=False,
    repr=False` (it hashes by identity, as an object does), `slots=True` unless asked otherwise; `frozen`
    as for a dataclass. Used bare (`@record`) or with arguments (`@record(frozen=True)`).

    Each method a dataclass generates is compiled with `exec` when its module is imported, on the serial
    start of every run: 40 records had a `__repr__`, and 35 an `__eq__` (with, frozen, a `__hash__`), that
    nothing called (found by recording every call of the generated methods over the quick suite, `check`
    and `fix` of the benchmark corpus); without them the imports before a run's fork took 0.598 G -> 0.544
    G instructions (bench/README.md, "The imports before the fork"). A value that tests or sets compare
    (findings, fixes, spans, jobs, per-file results) keeps its generated methods: use `dataclass` for it.

    A frozen record's two guards (`__setattr__`, `__delattr__`), which `dataclasses` compiles with `exec` for each
    class, are closures made without compiling anything (`_frozen_guards`): the same code, the same behaviour.
    The analysis' 34 frozen records cost 43 M instructions of `exec` on the serial start of a cold run
    (bench/README.md, "A fourth round")."""

    def wrap(cls: type) -> type:
        return _dataclass(cls, frozen=frozen, slots=slots, eq=False, repr=False)

    return wrap if cls is None else wrap(cls)


@dataclass_transform(frozen_default=True)
def frozen(cls: type | None = None, /, **options: Any):
    """`dataclasses.dataclass(frozen=True, **options)` for a value (findings, spans, settings, jobs: what tests
    and sets compare keeps every generated method), with its frozen guards, `__eq__`, order methods, `__hash__`
    and `__repr__` made as closures of the same code (`_dataclass`): about 1.2 M instructions of `exec` saved
    for each on the start of every run, for a call that costs about 0.1 microseconds more (bench/README.md,
    "A fourth round"). Used bare (`@frozen`) or with the dataclass' other options
    (`@frozen(slots=True, order=True)`)."""

    def wrap(cls: type) -> type:
        return _dataclass(cls, frozen=True, **options)

    return wrap if cls is None else wrap(cls)


def _dataclass(cls: type, **options: Any) -> type:
    """`dataclasses.dataclass(cls, **options)`; a frozen class gets its generated methods but `__init__` as
    closures (`_frozen_guards`, `_compare`, `_hash`, `_repr`) where `dataclasses` is CPython 3.11's or 3.12's,
    whose four makers those stand in for during the call."""
    import dataclasses  # (imported by every module that declares a record; not by the CLI's start)

    if not options.get("frozen") or sys.version_info[:2] not in ((3, 11), (3, 12)):
        return dataclasses.dataclass(cls, **options)
    makers = {"_frozen_get_del_attr": _frozen_guards, "_cmp_fn": _compare, "_hash_fn": _hash, "_repr_fn": _repr}
    generated = {name: getattr(dataclasses, name) for name in makers}
    for name, made in makers.items():
        setattr(dataclasses, name, made)
    try:
        return dataclasses.dataclass(cls, **options)
    finally:
        for name, made in generated.items():
            setattr(dataclasses, name, made)


def _fields_of(tuple_text: str) -> tuple[str, ...]:
    """The field names of `dataclasses._tuple_str`'s text: `"(self.x,self.y,)"` -> `("x", "y")`, `"()"` -> ()."""
    if tuple_text == "()":
        return ()
    return tuple(item.split(".", 1)[1] for item in tuple_text[1:-2].split(","))


def _values(names: tuple[str, ...]):
    """A function giving the tuple of an object's attributes `names`, in order (`(self.x,self.y,)`)."""
    from operator import attrgetter

    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _compare(name: str, op: str, self_tuple: str, other_tuple: str, globals: dict):
    """`dataclasses._cmp_fn`'s comparison (`__eq__`, `__lt__`, ...) as a closure: the tuples of the fields
    compared with `op` when `other` is of the very class of `self`, else `NotImplemented`."""
    values = _values(_fields_of(self_tuple))

    # (one closure per operator, each written out: calling `operator.eq` and the like was a third slower)
    if op == "==":

        def compare(self, other):
            if other.__class__ is self.__class__:
                return values(self) == values(other)
            return NotImplemented

    elif op == "<":

        def compare(self, other):
            if other.__class__ is self.__class__:
                return values(self) < values(other)
            return NotImplemented

    elif op == "<=":

        def compare(self, other):
            if other.__class__ is self.__class__:
                return values(self) <= values(other)
            return NotImplemented

    elif op == ">":

        def compare(self, other):
            if other.__class__ is self.__class__:
                return values(self) > values(other)
            return NotImplemented

    else:  # ">="

        def compare(self, other):
            if other.__class__ is self.__class__:
                return values(self) >= values(other)
            return NotImplemented

    compare.__name__ = name
    return compare


def _hash(fields: list, globals: dict):
    """`dataclasses._hash_fn`'s `__hash__` as a closure: the hash of the tuple of `fields`."""
    values = _values(tuple(f.name for f in fields))

    def __hash__(self):  # noqa: N807 - (the method's name)
        return hash(values(self))

    return __hash__


def _repr(fields: list, globals: dict):
    """`dataclasses._repr_fn`'s `__repr__` as a closure: `Class(x=1, y=2)` with each field's `repr`, guarded
    against recursion by dataclasses' own wrapper."""
    import dataclasses

    names = tuple(f.name for f in fields)

    def __repr__(self):  # noqa: N807
        return self.__class__.__qualname__ + "(" + ", ".join([f"{n}={getattr(self, n)!r}" for n in names]) + ")"

    return dataclasses._recursive_repr(__repr__)  # type: ignore[attr-defined]


def _frozen_guards(cls: type, fields: list, globals: dict) -> tuple:
    """The `__setattr__` and `__delattr__` of a frozen dataclass, as CPython's `dataclasses._frozen_get_del_attr`
    (3.11, 3.12) writes them, as closures: an instance of `cls` itself, or any instance for a field's name,
    raises `FrozenInstanceError` with dataclasses' message; anything else goes to the class above `cls`."""
    from dataclasses import FrozenInstanceError

    names = frozenset(f.name for f in fields)

    def __setattr__(self, name, value):  # noqa: N807 - (the method's name)
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):  # noqa: N807
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


# --- hashing ------------------------------------------------------------------------------------------


def sha256(data: bytes = b""):
    """`hashlib.sha256(data)`: the same digests, from CPython's built-in SHA-256 module where there is one
    (`_sha256`, 3.11; `_sha2`, 3.12 on), without importing `hashlib`, which loads OpenSSL's `_hashlib` (11 M
    instructions, 2 ms: a tenth of what a warm check imports of its own). For the cache's keys (short texts,
    `cache_keys`); a run that hashes whole modules (the analysis' reads) uses `hashlib`."""
    return _SHA256(data)


def state_digest(data: bytes) -> str:
    """A 32-hex-digit digest of `data` for keys this tool compares with its own earlier ones (the project's
    answers and states a warm run checks again: `project_graph`, `analysis.project_answers`): BLAKE2b from
    CPython's built-in `_blake2` (4x faster than the built-in SHA-256 on the 0.5 MB of a large project's
    state, and no OpenSSL to load: `sha256`'s doc), `hashlib`'s where that module is missing. Never for a
    digest a user or another tool reads (fingerprints, SARIF): those stay SHA-256."""
    return _BLAKE2B(data, digest_size=16).hexdigest()


def _builtin_blake2b():
    """The constructor `state_digest` uses: the built-in module's, else `hashlib`'s."""
    try:
        return __import__("_blake2").blake2b
    except (ImportError, AttributeError):
        import hashlib

        return hashlib.blake2b


_BLAKE2B = _builtin_blake2b()


def _builtin_sha256():
    """The constructor `sha256` uses: the built-in module's, else `hashlib`'s."""
    for name in ("_sha256", "_sha2"):
        try:
            return __import__(name).sha256
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256


_SHA256 = _builtin_sha256()


# --- the cyclic collector -----------------------------------------------------------------------------


@contextlib.contextmanager
def gc_paused() -> Iterator[Paused]:
    """The cyclic garbage collector off inside the block, back to its state (on, unless someone turned it
    off) after it. For work that allocates many objects and no garbage cycle: the collections it triggers
    walk every young object and find nothing. Measured: collections during parsing and indexing cost a third
    of a check of the 2,000-line benchmark file; during the imports of a warm `check`, a tenth of them; while
    loading the results cache or walking a warm tree, a tenth of a warm run (bench/README.md). What the
    block leaves is collected once the collector runs again (the collection then due runs as the block
    ends: `api.analyse_source` lets go of a tree it does not keep before that, so that it is not walked).

    The block gets a `Paused`, whose `resume()` and `pause()` let the collector run for a while inside it
    (while a caller holds on to what a generator gave it, say)."""
    paused = Paused(gc.isenabled())
    gc.disable()
    try:
        yield paused
    finally:
        if paused.was_on:
            gc.enable()


class Paused:
    """The state `gc_paused` found the collector in (`was_on`), to resume it for a while inside the block."""

    __slots__ = ("was_on",)

    def __init__(self, was_on: bool) -> None:
        self.was_on = was_on

    def resume(self) -> None:
        """Let the collector run again (when it was on before the block) until `pause`."""
        if self.was_on:
            gc.enable()

    def pause(self) -> None:
        gc.disable()


def freeze_alive() -> None:
    """Move every object alive now into the collector's permanent generation (`gc.freeze`): no later
    collection walks them. For objects that live as long as the process (a CLI run's served results, the
    trees a worker keeps)."""
    gc.freeze()


# --- trees a worker keeps -------------------------------------------------------------------------------


class _Retained:
    """The `ast` trees this process keeps rather than frees (`retain_trees`), and how many characters of
    source they hold against the budget (characters; below zero nothing is kept: any process but a worker)."""

    __slots__ = ("budget", "chars", "trees")

    def __init__(self) -> None:
        self.trees: list[ast.Module] = []
        self.chars = 0
        self.budget = -1


_retained = _Retained()


def retain_trees(chars: int) -> None:
    """Keep the `ast` trees of the modules the analysis parses from now on (`retain_tree`), up to `chars`
    characters of source in all, instead of freeing them. Only for a process that ends without tearing its
    objects down: a worker of the runner's pool (multiprocessing ends its children with `os._exit`).
    Freeing a tree costs its deallocation of every node: 0.06 s of CPU for the 22 modules the reference
    corpus analyses (jax's 12,600-line pjit_test.py alone 0.015 s); a tree takes about 25 bytes of memory
    per character of source. Kept trees are moved out of the collector's generations (`gc.freeze`), so
    that no collection walks them again."""
    _retained.budget = chars


def retain_tree(tree: ast.Module, chars: int) -> bool:
    """Keep `tree` (parsed from `chars` characters of source) when the budget of `retain_trees` has room for
    it; whether it was kept. Called while the collector is paused (`gc_paused`): the tree was allocated
    meanwhile and would be the next young collection's walk, so it is frozen out of its reach."""
    if _retained.chars + chars > _retained.budget:
        return False
    _retained.trees.append(tree)
    _retained.chars += chars
    gc.freeze()
    return True


# --- memory handed back to the kernel ----------------------------------------------------------------------

# glibc's `mallopt` parameters (malloc.h) and the value given to both: 1 GiB, past any allocation of a run.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP_BYTES = 1 << 30


def keep_freed_memory() -> bool:
    """Ask glibc's allocator (through `mallopt`) to keep what is freed in the process for later allocations:
    no trimming of the heap's top, and large blocks taken from the heap rather than mapped one by one (a
    mapped block goes back to the kernel when freed). Whether it was set (not on another C library or
    system). Called by the main process before it forks its workers, which inherit the setting.

    `ast.parse` of a large module allocates tens of MB that it frees once the tree is built (jax's
    pjit_test.py touches 69 MB for a 442 KB text); glibc handed most of it back, so the next parse in the
    worker took fresh pages again, each a page fault (about 3.4 microseconds of system time on the benchmark
    machine). A cold run of the reference corpus: the two workers' page faults 49,000-52,400 -> 39,900-40,200
    (three runs each; bench/README.md). The memory stays the process's own: its peak is the same, it is only
    not given back before the process ends."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):  # no ctypes, or a C library without mallopt
        return False
    return bool(mallopt(_M_TRIM_THRESHOLD, _KEEP_BYTES)) and bool(mallopt(_M_MMAP_THRESHOLD, _KEEP_BYTES))


# --- the end of the process ---------------------------------------------------------------------------


def leave(code: object) -> None:
    """End the process with the exit code `code` (as `sys.exit` takes it), without tearing the interpreter
    down when nothing would be waited for. Never returns.

    Everything a command does is done when it returns (reports written, the results cache saved, worker
    pools shut down); what is left is freeing every object of the run and every module, one by one: 40-55 ms
    after the last write of a cold `check` of the benchmark corpus (strace), a fifth of a warm one. So, once
    the standard streams are flushed, the process leaves with `os._exit`, as a forked worker does. It leaves
    the normal way (`sys.exit`: atexit handlers, thread joins) when a child process or another non-daemon
    thread is still alive (`may_leave_now`)."""
    if not may_leave_now():
        sys.exit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # what sys.exit("message") prints
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing more to say
            pass
    os._exit(code or 0)


def may_leave_now() -> bool:
    """True when no child process and no other non-daemon thread is alive (the normal exit would wait)."""
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        return False
    multiprocessing = sys.modules.get("multiprocessing")  # (not imported by a run without workers)
    return multiprocessing is None or not multiprocessing.active_children()
