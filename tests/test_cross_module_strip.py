"""Issue 20, cross-module safety of strip: a fix that edits a shard_map'd function (or a spec constant) of
another module is judged against every use of it in every module of the project (`analysis.project_callers`,
`analysis.importers`), with the allowlist `analysis.callers` applies inside one module: the vmap itself and
reads inside the functions its callable traces.

Each test writes the standard layout (pkg/config.py with the mesh, pkg/model.py with an elementwise shard_map'd
layer whose specs use every mesh axis, pkg/train.py with the vmap) plus modules that use `forward`, and reads
strip's applicability and reason from the finding at model.py's spec.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix import project_graph
from spmdfix.api import check_source, new_project_index
from spmdfix.model import Applicability, Options

CONFIG = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"
    "DATA, MODEL = 'data', 'model'\nMESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))\n"
)
MODEL = (
    "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
    "from .config import DATA, MESH, MODEL\n\nROWS = P(DATA, MODEL)\n\n\n"
    "def forward(x):\n    return jax.shard_map(lambda a: jnp.sin(a) * 2.0, mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)\n"
)
TRAIN = "import jax\n\nfrom .config import DATA\nfrom .model import forward\n\nstep = jax.vmap(forward, spmd_axis_name=DATA)\n"
NOT_SEARCHED = ("not searched", "other modules that may import")


def _strip(tmp_path: Path, extra: dict[str, str], checked: str = "train.py"):
    """strip of the finding at model.py's spec, the project written with `extra` modules beside it, checked
    from `checked` (the vmap's module, or model.py alone: a partial run of the CLI does it the same way)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir(parents=True)
    files = {"__init__.py": "", "config.py": CONFIG, "model.py": MODEL, "train.py": TRAIN, **extra}
    for name, text in files.items():
        (pkg / name).write_text(text)
    project_graph.forget_graphs()
    root = tmp_path.resolve()
    path = root / "pkg" / checked
    findings = check_source(path.read_text(), Options(), path=path, index=new_project_index(root))
    assert findings, "the collision is found"
    fixes = [fix for fix in findings[0].fixes if fix.title.startswith("Strip")]
    assert len(fixes) == 1
    return fixes[0]


def test_every_use_the_vmaps_own_is_safe(tmp_path: Path) -> None:
    extra = {
        "train.py": (
            "import jax\n\nfrom . import model\nfrom .config import DATA\n\n\ndef loss(x):\n"
            "    return model.forward(x) * 2.0\n\n\nstep = jax.vmap(loss, spmd_axis_name=DATA)\n"
        ),
        "again.py": "from .model import forward\n",  # a re-export nobody reads
        "run.py": "from .train import step\n\n\ndef main(xs):\n    return step(xs)\n",
    }
    fix = _strip(tmp_path, extra)
    assert fix.applicability is Applicability.SAFE, fix.reason
    assert not any(words in fix.reason for words in NOT_SEARCHED)


@pytest.mark.parametrize(
    ("name", "text", "named"),
    [
        ("direct call", "from .model import forward\n\n\ndef f(x):\n    return forward(x)\n", ("`forward(x)` (", "pkg/extra.py line 5)")),
        ("module attribute", "from . import model\n\n\ndef f(x):\n    return model.forward(x)\n", ("", "pkg/extra.py line 5)")),
        (
            "container read",
            "from .model import forward\n\nTABLE = {'f': forward}\n\n\ndef f(x):\n    return TABLE['f'](x)\n",
            ("", "pkg/extra.py line 7)"),
        ),
        (
            "argument",
            "from .model import forward\n\n\ndef run(fn, x):\n    return fn(x)\n\n\nOUT = run(forward, 1.0)\n",
            ("`run(forward, 1.0)` (", "pkg/extra.py line 8)"),
        ),
        ("getattr", "from . import model\n\nf = getattr(model, 'forward')\n", ("", "pkg/extra.py line 3)")),
        ("star import", "from .model import *\n", ("`from .model import *` (", "pkg/extra.py line 1)")),
        ("importlib", "import importlib\n\nm = importlib.import_module(f'pkg.{NAME}')\n", ("`import importlib` (", "pkg/extra.py line 1)")),
        ("__import__", "m = [__import__('pkg.model')]\n", ("`__import__('pkg.model')` (", "pkg/extra.py line 1)")),
        (
            "__import__ of the package",
            "def load():\n    return __import__('pkg', fromlist=['model'])\n",
            ("`__import__('pkg', fromlist=['model'])` (", "pkg/extra.py line 2)"),
        ),
        ("spec constant", "from .model import ROWS\n\nSPEC = ROWS\n", ("", "pkg/extra.py line 3)")),
    ],
)
def test_a_use_off_the_allowlist_in_another_module_names_it(
    tmp_path: Path, name: str, text: str, named: tuple[str, str]
) -> None:
    fix = _strip(tmp_path, {"extra.py": text})
    assert fix.applicability is Applicability.UNSAFE, name
    use, where = named
    assert use in fix.reason and where in fix.reason, fix.reason
    assert not any(words in fix.reason for words in NOT_SEARCHED), fix.reason


def test_a_wrapped_alias_is_followed_to_the_modules_importing_it(tmp_path: Path) -> None:
    """`g = jax.jit(forward)` in one module is a way out of it: the module importing `g` calls it."""
    extra = {
        "extra.py": "import jax\n\nfrom .model import forward\n\ng = jax.jit(forward)\n",
        "caller.py": "from .extra import g\n\n\ndef h(x):\n    return g(x)\n",
    }
    fix = _strip(tmp_path, extra)
    assert fix.applicability is Applicability.UNSAFE
    assert "`g(x)` (" in fix.reason and "pkg/caller.py line 5)" in fix.reason, fix.reason
    alone = _strip(tmp_path / "alone", {"extra.py": extra["extra.py"]})
    assert alone.applicability is Applicability.SAFE, alone.reason  # g is read by no module


def test_a_direct_call_in_the_vmaps_own_module_is_named(tmp_path: Path) -> None:
    train = TRAIN + "\n\ndef reference(x):\n    return forward(x)\n"
    fix = _strip(tmp_path, {"train.py": train})
    assert fix.applicability is Applicability.UNSAFE
    assert "`forward(x)` (" in fix.reason and "pkg/train.py line 10)" in fix.reason, fix.reason


def test_the_layer_module_checked_alone_judges_the_same(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from spmdfix.cli import main

    _strip(tmp_path, {"extra.py": "from .model import forward\n\n\ndef f(x):\n    return forward(x)\n"})
    result = CliRunner().invoke(main, ["check", "--no-cache", "--show-fixes", "--unsafe-fixes", str(tmp_path / "pkg" / "model.py")])
    strip = [line for line in result.stdout.splitlines() if "fix [" in line and "Strip" in line]
    assert strip and all("[unsafe]" in line and "pkg/extra.py line 5)" in line for line in strip), result.stdout


def test_the_cache_sees_a_new_module_calling_the_function(tmp_path: Path) -> None:
    """A cached 'safe' depends on who imports the modules it was judged against: a new caller two imports
    away (importing `g = jax.jit(forward)`), then its removal, each change what a cached run reports."""
    from click.testing import CliRunner

    from spmdfix.cli import main
    from spmdfix.api import forget_indexes

    _strip(tmp_path, {"extra.py": "import jax\n\nfrom .model import forward\n\ng = jax.jit(forward)\n"})
    model = str(tmp_path / "pkg" / "model.py")

    def strip_class() -> set[str]:
        forget_indexes([tmp_path])
        project_graph.forget_graphs()
        out = CliRunner().invoke(main, ["check", "--show-fixes", "--unsafe-fixes", model]).stdout
        return {line.split("]")[0].split("[")[-1] for line in out.splitlines() if "fix [" in line and "Strip" in line}

    assert strip_class() == {"safe"}
    (tmp_path / "pkg" / "caller.py").write_text("from .extra import g\n\n\ndef h(x):\n    return g(x)\n")
    assert strip_class() == {"unsafe"}
    (tmp_path / "pkg" / "caller.py").unlink()
    assert strip_class() == {"safe"}


def test_the_golden_tree_with_a_caller_names_it(tmp_path: Path) -> None:
    """golden/refuse/tree_cross_module_strip_caller: findings.txt says strip is unsafe; its reason names the
    direct call in pkg/evaluate.py (through pkg/__init__.py's re-export)."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(Path(__file__).parent.parent / "golden/refuse/tree_cross_module_strip_caller/input", root)
    project_graph.forget_graphs()
    index = new_project_index(root.resolve())
    path = (root / "pkg" / "train.py").resolve()
    findings = check_source(path.read_text(), Options(), path=path, index=index)
    strips = [fix for f in findings for fix in f.fixes if fix.title.startswith("Strip")]
    assert len(strips) == 2
    for fix in strips:
        assert fix.applicability is Applicability.UNSAFE
        assert "`forward(x)` (" in fix.reason and "pkg/evaluate.py line 7)" in fix.reason, fix.reason


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("import importlib.metadata\n\nVERSION = importlib.metadata.version('jax')\n", True),
        ("from importlib import resources\n\nDATA = resources.files('pkg')\n", True),
        ("import importlib\n\nnp = importlib.import_module('numpy')\n", True),
        ("np = __import__('numpy')\n", True),
        ("m = __import__('pkg.other').other\n", True),  # (a literal name: read as `import pkg.other`)
        ("m = [__import__('pkg.other')]\n", False),  # (the package object, whose `model` is pkg.model, stored)
        ("import importlib\n\nm = importlib.import_module('pkg.model')\n", True),  # (`import pkg.model as m`, unread)
        ("import importlib\n\nm = importlib.import_module('pkg.mo' + 'del')\n", False),
        ("import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n", False),
        ("from importlib import util\n\n\ndef load(path):\n    return util.spec_from_file_location('m', path)\n", False),
    ],
)
def test_a_module_importing_importlib_counts_when_it_may_load_the_module(tmp_path: Path, text: str, safe: bool) -> None:
    """importlib's package-data parts and an import_module of another module's literal name load nothing of
    pkg.model; a load of a literal name is read as an import of that module (here its module object is unread,
    or stored whole); any other use may load it by name (named at its `import` statement)."""
    fix = _strip(tmp_path, {"extra.py": text})
    assert (fix.applicability is Applicability.SAFE) is safe, fix.reason
    if not safe:
        assert "import" in fix.reason and "pkg/extra.py line 1)" in fix.reason, fix.reason


LAYERS3 = (
    "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
    "from .config import DATA, MESH, MODEL\n\n\n"
    "def block(x):\n    return jax.shard_map(lambda a: jnp.sin(a) * 2.0, mesh=MESH, in_specs=P(DATA, MODEL), "
    "out_specs=P(DATA, MODEL))(x)\n"
)
MODEL3 = "from .layers import block\n\n\ndef forward(x):\n    return block(x) + 1.0\n"
TRAIN3 = (
    "import jax\n\nfrom . import model\nfrom .config import DATA\n\n\ndef step(x):\n    return model.forward(x) * 2.0\n\n\n"
    "run = jax.vmap(step, spmd_axis_name=DATA)\n"
)


@pytest.mark.parametrize(
    ("caller", "named"),
    [
        ("", None),
        ("from .train import run\n\n\ndef ev(x):\n    return run(x)\n", None),  # the vmap itself
        ("from .model import forward\n\n\ndef ev(x):\n    return forward(x)\n", "`forward(x)` ("),
        ("from .layers import block\n\n\ndef ev(x):\n    return block(x)\n", "`block(x)` ("),
        ("from .train import step\n\n\ndef ev(x):\n    return step(x)\n", "`step(x)` ("),
    ],
)
def test_a_chain_of_three_modules_judges_each_on_its_way(tmp_path: Path, caller: str, named: str | None) -> None:
    """train.py vmaps `step`, which calls `model.forward`, which calls `layers.block` (the shard_map): each module
    on the way is judged with what the vmap traces there; a direct call of any of the three elsewhere is named."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    files = {"__init__.py": "", "config.py": CONFIG, "layers.py": LAYERS3, "model.py": MODEL3, "train.py": TRAIN3}
    for name, text in {**files, **({"ev.py": caller} if caller else {})}.items():
        (pkg / name).write_text(text)
    project_graph.forget_graphs()
    root = tmp_path.resolve()
    train = root / "pkg" / "train.py"
    findings = check_source(train.read_text(), Options(), path=train, index=new_project_index(root))
    fixes = [fix for f in findings for fix in f.fixes if fix.title.startswith("Strip")]
    assert fixes
    for fix in fixes:
        if named is None:
            assert fix.applicability is Applicability.SAFE, fix.reason
        else:
            assert fix.applicability is Applicability.UNSAFE
            assert named in fix.reason and "pkg/ev.py line 5)" in fix.reason, fix.reason


LAYER = (
    "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
    "from .config import DATA, MESH, MODEL\n\nROWS = P(DATA, MODEL)\n\n\nclass Layer:\n"
    "    def __init__(self):\n        self.scale = 2.0\n\n    def __call__(self, x):\n"
    "        return jax.shard_map(lambda a: jnp.sin(a) * 2.0, mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)\n"
)


@pytest.mark.parametrize(
    ("use", "named"),
    [
        ("SCALE = float(layer.scale)", ("`layer.scale` (", "pkg/train.py line 8) (reads its attribute `scale`: not a call of it)")),
        ("OUT = print(layer)", ("`print(layer)` (", "pkg/train.py line 8) (passes it to `print`: not a call of it)")),
    ],
)
def test_a_use_that_is_no_call_is_named_as_what_it_is(tmp_path: Path, use: str, named: tuple[str, str]) -> None:
    """A read of the instance whose `__call__` runs the shard_map that does not call it still keeps strip unsafe
    (the instance escapes there and may run later, unseen), but the reason does not call it a place the
    shard_map runs: trial-nu's `np.asarray(model.w_in)` was listed as "also runs without this vmap"."""
    train = f"import jax\n\nfrom .config import DATA\nfrom .model import Layer\n\nlayer = Layer()\nstep = jax.vmap(layer, spmd_axis_name=DATA)\n{use}\n"
    fix = _strip(tmp_path, {"model.py": LAYER, "train.py": train})
    assert fix.applicability is Applicability.UNSAFE
    assert all(part in fix.reason for part in named), fix.reason
    assert "escapes this vmap at places that do not call it" in fix.reason
    assert "also runs without this vmap" not in fix.reason


def test_a_call_elsewhere_is_named_as_running_the_shard_map(tmp_path: Path) -> None:
    fix = _strip(tmp_path, {"extra.py": "from .model import forward\n\n\ndef f(x):\n    return forward(x)\n"})
    assert fix.applicability is Applicability.UNSAFE
    assert "also runs without this vmap, and the edit changes it there too: `forward(x)` (" in fix.reason
    assert "pkg/extra.py line 5)" in fix.reason
    assert "not a call of it" not in fix.reason
