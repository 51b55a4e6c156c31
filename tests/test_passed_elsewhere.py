"""A parameter that no call of its own module gives a value, read from the calls of the project's other modules
(`analysis.passed_elsewhere`): every read of the function's name there a call, every call passing one value.

model.py's `def accumulate(fn, xs, spmd_axis_name='data')` applies `jax.vmap(fn, spmd_axis_name=...)(xs)` and
only train.py calls it (`accumulate(apply, xs)`): the vmapped function and the axis come from train.py. Before,
model.py's analysis stopped with an SPMD910 record ("which no call in its module makes"); the golden trees
refuse/tree_spmd_default_of_applying_helper_other_module and
drop-spmd-axis/tree_init_default_given_by_construction_other_module run the two forms under JAX. Here: what
keeps the value unknown (a record, never a guess).
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

MODEL = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
    "def block(x):\n"
    "    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)\n\n\n"
    "def accumulate(fn, xs, spmd_axis_name='data'):\n"
    "    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)\n"
)
TRAIN = (
    "from pkg.model import accumulate, block\n\n\n"
    "def apply(x):\n    return block(x) + 1.0\n\n\n"
    "def step(xs):\n    return accumulate(apply, xs)\n"
)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    for name, text in {"pkg/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    project_graph.forget_graphs()
    return tmp_path.resolve()


def _analyse(root: Path, module: str = "pkg/model.py"):
    path = root / module
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(root))


def _codes(result) -> list[str]:
    return sorted(f.code for f in result.findings)


def _records(result) -> list[str]:
    return [u.what for u in result.unfollowed]


def test_the_function_and_the_default_come_from_the_one_call_of_another_module(tmp_path: Path) -> None:
    result = _analyse(_project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": TRAIN}))
    assert _codes(result) == ["SPMD001", "SPMD002"]
    assert not result.unfollowed, _records(result)
    # located in the checked module itself (its own path ""), though reached through train.py's `apply`
    assert all(f.span.path == "" for f in result.findings)


def test_calls_passing_two_axes_leave_it_unknown(tmp_path: Path) -> None:
    train = TRAIN + "\n\ndef other(xs):\n    return accumulate(apply, xs, spmd_axis_name='model')\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": train}))
    assert not result.findings
    assert any("`spmd_axis_name` is a parameter of `accumulate`" in w for w in _records(result)), _records(result)


def test_the_same_literal_in_two_modules_is_one_value(tmp_path: Path) -> None:
    train = TRAIN.replace("accumulate(apply, xs)", "accumulate(apply, xs, spmd_axis_name='data')")
    more = "from pkg.model import accumulate\nfrom pkg.train import apply\n\n\ndef run(xs):\n    return accumulate(apply, xs, 'data')\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": train, "pkg/more.py": more}))
    assert _codes(result) == ["SPMD001", "SPMD002"]


def test_the_function_passed_on_leaves_it_unknown(tmp_path: Path) -> None:
    """A read of `accumulate` that is no call of it (handed to other code, which may call it with anything)."""
    train = TRAIN + "\n\nRUNNERS = [accumulate]\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": train}))
    assert not result.findings
    assert result.unfollowed


def test_a_star_import_leaves_it_unknown(tmp_path: Path) -> None:
    star = "from pkg.model import *\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": TRAIN, "pkg/star.py": star}))
    assert not result.findings
    assert result.unfollowed


def test_a_decorated_function_leaves_it_unknown(tmp_path: Path) -> None:
    """A decorator may call the function with arguments of its own: the callers' are not its."""
    model = MODEL.replace(
        "def accumulate(", "def logged(f):\n    return lambda fn, xs: f(fn, xs, 'model')\n\n\n@logged\ndef accumulate("
    )
    result = _analyse(_project(tmp_path, {"pkg/model.py": model, "pkg/train.py": TRAIN}))
    assert not result.findings
    assert result.unfollowed


def test_a_method_is_not_read_from_the_constructions_of_its_class(tmp_path: Path) -> None:
    """`Runner(apply)` passes `__init__`'s arguments, not `run`'s: read as `run`'s, `fn` was `apply` and the axis
    the default, a finding no call of `run` makes."""
    model = MODEL.replace(
        "def accumulate(fn, xs, spmd_axis_name='data'):\n    return",
        "class Runner:\n    def __init__(self, fn):\n        self.fn = fn\n\n"
        "    def run(self, fn, xs, spmd_axis_name='data'):\n        return",
    ).replace("    return jax.vmap(fn,", "        return jax.vmap(fn,")
    train = "from pkg.model import Runner, block\n\n\ndef apply(x):\n    return block(x)\n\n\nRUNNER = Runner(apply)\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": model, "pkg/train.py": train}))
    assert not result.findings
    assert any("a parameter of `Runner.run` (line" in w and "a method, whose callers" in w for w in _records(result)), _records(result)


def test_a_wrapper_call_passing_the_axis_is_its_own_vmap_site(tmp_path: Path) -> None:
    """`batched(step, spmd_axis_name='data')` of a wrapper returning the vmap is a vmap site of train.py
    (`vmap_sites._wrapper_site`): the helper's own vmap does not read it again (the collision was reported
    twice), and train.py reports it."""
    model = MODEL.replace(
        "def accumulate(fn, xs, spmd_axis_name='data'):\n    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)\n",
        "def batched(fn, spmd_axis_name='model'):\n    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)\n",
    )
    train = "from pkg.model import batched, block\n\n\ndef step(xs):\n    return batched(block, spmd_axis_name='data')(xs)\n"
    root = _project(tmp_path, {"pkg/model.py": model, "pkg/train.py": train})
    assert not _analyse(root).findings
    assert _codes(_analyse(root, "pkg/train.py")) == ["SPMD001", "SPMD002"]


FIELD_MODEL = (
    "import dataclasses\n\nimport jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
    "@dataclasses.dataclass\nclass Layer:\n    AXIS: str = 'data'\n\n"
    "    def __call__(self, x):\n"
    "        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)\n"
)
FIELD_TRAIN = "import jax\n\nfrom pkg.model import Layer\n\n\ndef step(xs):\n    return jax.vmap(Layer(), spmd_axis_name='data')(xs)\n"


def test_a_field_every_construction_of_the_project_leaves_is_its_default(tmp_path: Path) -> None:
    """A dataclass field's default, when every construction (all in another module) leaves it (fuzz/project.py
    seed 570029: `AXIS: str = 'model'`, `Layer()` in train.py, an SPMD910 record on main)."""
    root = _project(tmp_path, {"pkg/model.py": FIELD_MODEL, "pkg/train.py": FIELD_TRAIN})
    result = _analyse(root, "pkg/train.py")
    assert _codes(result) == ["SPMD001", "SPMD002"]
    assert not result.unfollowed, _records(result)


def test_a_field_a_construction_gives_stays_unknown(tmp_path: Path) -> None:
    train = FIELD_TRAIN + "\n\nOTHER = Layer(AXIS='model')\n"
    root = _project(tmp_path, {"pkg/model.py": FIELD_MODEL, "pkg/train.py": train})
    result = _analyse(root, "pkg/train.py")
    assert not result.findings
    assert result.unfollowed


def test_a_subclass_elsewhere_leaves_the_field_unknown(tmp_path: Path) -> None:
    """`class Wide(Layer)` reads `Layer` other than by calling it: its constructions are not all seen."""
    more = "from pkg.model import Layer\n\n\nclass Wide(Layer):\n    pass\n\n\nW = Wide(AXIS='model')\n"
    root = _project(tmp_path, {"pkg/model.py": FIELD_MODEL, "pkg/train.py": FIELD_TRAIN, "pkg/more.py": more})
    result = _analyse(root, "pkg/train.py")
    assert not result.findings


def test_the_results_cache_follows_the_calls_of_the_other_modules(tmp_path: Path, monkeypatch) -> None:
    """model.py's result depends on train.py's call (its argument is the axis): checked again with the cache
    after train.py passes another axis, the finding goes; back, it returns."""
    from click.testing import CliRunner

    from spmdfix.api import forget_indexes
    from spmdfix.cli import main

    root = _project(tmp_path, {"pkg/model.py": MODEL, "pkg/train.py": TRAIN})
    monkeypatch.chdir(root)

    def check() -> int:
        forget_indexes([root])
        env = {"SPMDFIX_CACHE_DIR": str(root / ".cache-test")}
        return CliRunner().invoke(main, ["check", "pkg/model.py"], env=env, catch_exceptions=False).exit_code

    assert check() == 1
    (root / "pkg/train.py").write_text(TRAIN.replace("accumulate(apply, xs)", "accumulate(apply, xs, 'model')"))
    assert check() == 0
    (root / "pkg/train.py").write_text(TRAIN)
    assert check() == 1


def test_a_def_of_the_module_checked_passed_back_keeps_its_defaults(tmp_path: Path) -> None:
    """train.py passes model.py's own `inner` to model.py's `accumulate`: the vmap runs `inner` with its default
    ('data'); model.py's own call `inner(x, 'model')` is no call of the vmap (breaker9 t13: read as the axis, the
    tree said nothing while JAX raises). Not known: a record, never the own call's value."""
    model = MODEL.replace("def block(x):", "def block(x, axis):").replace("P('data'), out_specs=P('data')", "P(axis), out_specs=P(axis)")
    model += "\n\ndef inner(x, axis='data'):\n    return block(x, axis) + 1.0\n\n\ndef evaluate(x):\n    return inner(x, 'model')\n"
    train = "from pkg.model import accumulate, inner\n\n\ndef step(xs):\n    return accumulate(inner, xs)\n"
    result = _analyse(_project(tmp_path, {"pkg/model.py": model, "pkg/train.py": train}))
    assert not result.findings
    assert any("PartitionSpec entry `axis`" in w for w in _records(result)), _records(result)


def test_a_field_of_the_checked_module_reached_back_through_another_module_is_read(tmp_path: Path) -> None:
    """model.py's own vmap runs train.py's `apply`, which calls model.py's `Layer` instance built in train.py:
    the analysis comes back to model.py in the index's parse of it, whose `__init__` parameter was looked up in
    the checked module's model and never found (a record: "`axis` is an expression spmdfix does not evaluate",
    breaker9). Read in its own model, `Layer()` leaves the default 'data': JAX raises SPMD001's error."""
    model = (
        "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
        "class Layer:\n    def __init__(self, axis='data'):\n        self.axis = axis\n\n"
        "    def __call__(self, x):\n"
        "        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(x)\n\n\n"
        "def accumulate(fn, xs):\n    return jax.vmap(fn, spmd_axis_name='data')(xs)\n"
    )
    train = (
        "from pkg.model import Layer, accumulate\n\nLAYER = Layer()\n\n\n"
        "def apply(x):\n    return LAYER(x)\n\n\ndef step(xs):\n    return accumulate(apply, xs)\n"
    )
    result = _analyse(_project(tmp_path, {"pkg/model.py": model, "pkg/train.py": train}))
    assert _codes(result) == ["SPMD001", "SPMD002"]
    assert not result.unfollowed, _records(result)
