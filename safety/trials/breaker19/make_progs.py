"""Writes progs/ (the breaker19 programs): python make_progs.py. Each program is a small package `pkg` laid out as
JAX teams do: pkg/config.py (the mesh `MESH` and the axis constants), pkg/model.py (a shard_map'd layer whose specs
name `DATA`), pkg/train.py (`jax.vmap(..., spmd_axis_name=DATA)`: JAX raises, the spmd axis is in the specs), and
one more module reading the mesh (group a: add-axis) or the spec constant (group s: strip) through one SPELLING
of a cross-module read. main.py runs the layer and folds the reader's value into the result, and prints `RESULT:
match` against a numpy reference computed with the values the program has without the fix (the reader's value
on the original (2, 4) mesh, or on the original spec). A fix applied as safe that changes the reader's value
is a wrong SAFE fix (BUG1 in the harness)."""
import json, pathlib, shutil

HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'

CONFIG = """import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
"""
MODEL_A = """import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH, MODEL


def forward(x, w):
    return jax.shard_map(
        lambda a, b: a @ b, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)), out_specs=P(DATA, MODEL)
    )(x, w)
"""
TRAIN_A = """import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)
"""
DATA_A = """import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from .config import MESH, MODEL


def place(w):
    return jax.device_put(w, NamedSharding(MESH, P(None, MODEL)))
"""
MAIN_A = """import numpy as np

{pre}from pkg.data import place
from pkg.train import step
{imp}


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    w = (np.arange(16 * 8, dtype=np.float32).reshape(16, 8) % 5 - 2.0) / 3.0
    out = np.asarray(step(xs, place(w))) * float({call})
    ref = (xs @ w) * float({expect})
    print("RESULT: match" if np.allclose(out, ref, atol=1e-4) else "RESULT: mismatch")


if __name__ == "__main__":
    main()
"""


def a(name, files, imp="from pkg.reader import factor", call="factor()", expect=2, pre="", config=CONFIG,
      model=MODEL_A, init=""):
    """An add-axis program: `files` the extra modules (path -> text), main.py multiplying the result by
    `call` (the reader's value, `expect` on the original mesh)."""
    P[name] = {"pkg/__init__.py": init, "pkg/config.py": config, "pkg/model.py": model, "pkg/train.py": TRAIN_A,
               "pkg/data.py": DATA_A, **files,
               "main.py": MAIN_A.format(pre=pre, imp=imp, call=call, expect=expect)}


def reader(body, head=""):
    """pkg/reader.py: `head` (imports), then `def factor(): <body>`."""
    return {"pkg/reader.py": f"{head}\n\ndef factor():\n    " + body.replace("\n", "\n    ") + "\n"}


# ---- a: the mesh read by another module ----
a("a01_import_as_devices_shape", reader("return c.MESH.devices.shape[0]", "import pkg.config as c"))
a("a02_from_pkg_import_config_dict_shape", reader("return len(dict(config.MESH.shape))", "from pkg import config"))
a("a03_init_reexport_pkg_attr", reader("return pkg.MESH.devices.shape[0]", "import pkg"),
  init="from .config import MESH\n")
a("a04_init_star_all", reader("return MESH.devices.shape[0]", "from pkg import MESH"),
  init="from .config import *\n", config=CONFIG + '\n__all__ = ["DATA", "MODEL", "MESH"]\n')
a("a05_vars_module", reader("return vars(config)['MESH'].devices.shape[0]", "from pkg import config"))
a("a06_module_dunder_dict", reader("return config.__dict__['MESH'].devices.shape[0]", "from pkg import config"))
a("a07_sys_modules", reader("return sys.modules['pkg.config'].MESH.devices.shape[0]", "import sys"))
a("a08_import_module_literal", reader("return importlib.import_module('pkg.config').MESH.devices.shape[0]",
                                      "import importlib"))
a("a09_function_local_import", reader("from pkg.config import MESH\nreturn MESH.devices.shape[0]"))
a("a10_try_except_import", reader("return MESH.devices.shape[0] if MESH is not None else 2",
                                  "try:\n    from pkg.config import MESH\nexcept ImportError:\n    MESH = None"))
a("a11_dunder_import_fromlist", reader("return __import__('pkg.config', fromlist=['MESH']).MESH.devices.shape[0]"))
a("a12_init_module_getattr", reader("return pkg.MESH.devices.shape[0]", "import pkg"),
  init="def __getattr__(name):\n    if name == 'MESH':\n        from .config import MESH\n        return MESH\n"
       "    raise AttributeError(name)\n")
a("a13_script_in_scripts", {"scripts/report.py": "from pkg.config import MESH\n\n\ndef factor():\n"
                                                 "    return MESH.devices.shape[0]\n"},
  pre="import sys\nsys.path.insert(0, 'scripts')\n", imp="from report import factor")
a("a14_tests_helper", {"tests/__init__.py": "", "tests/helpers.py": "from pkg.config import MESH\n\n\ndef factor():\n"
                                                                   "    return MESH.devices.shape[0]\n"},
  imp="from tests.helpers import factor")
a("a15_subpackage_named_dist", {"pkg/dist/__init__.py": "", "pkg/dist/info.py": "from ..config import MESH\n\n\n"
                                "def factor():\n    return MESH.devices.shape[0]\n"}, imp="from pkg.dist.info import factor")
a("a16_subpackage_named_build", {"pkg/build/__init__.py": "", "pkg/build/info.py": "from pkg.config import MESH\n\n\n"
                                 "def factor():\n    return MESH.devices.shape[0]\n"}, imp="from pkg.build.info import factor")
a("a17_len_axis_names", reader("return len(MESH.axis_names)", "from pkg.config import MESH"))
a("a18_iterate_axis_names", reader("n = 0\nfor _ in MESH.axis_names:\n    n += 1\nreturn n", "from pkg.config import MESH"))
a("a19_size_allowlisted", reader("return MESH.size // 4", "from pkg.config import MESH"))
a("a20_devices_row", reader("return 8 // MESH.devices[0].size", "from pkg.config import MESH"))
a("a21_mesh_to_third_module", {**reader("return groups(config.MESH)", "from pkg import config\nfrom pkg.util import groups"),
                               "pkg/util.py": "def groups(m):\n    return m.devices.shape[0]\n"})
a("a22_monkeypatch_from_module", {"pkg/patch.py": "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"
                                  "from pkg import config\n\nconfig.MESH = Mesh(np.array(jax.devices())[::-1].reshape(2, 4), "
                                  "(config.DATA, config.MODEL))\n"},
  pre="import pkg.patch  # noqa: F401\n", imp="", call="2")
a("a23_circular_import", {**reader("return config.MESH.devices.shape[0]", "from pkg import config")},
  config=CONFIG + "\nfrom . import reader  # noqa: E402\n", imp="from pkg.reader import factor")
a("a24_relative_two_levels", {"pkg/sub/__init__.py": "", "pkg/sub/reader.py": "from ..config import MESH\n\n\n"
                              "def factor():\n    return MESH.devices.shape[0]\n"}, imp="from pkg.sub.reader import factor")
a("a25_pkgutil_resolve_name", reader("return pkgutil.resolve_name('pkg.config:MESH').devices.shape[0]", "import pkgutil"))
a("a26_pydoc_locate", reader("return pydoc.locate('pkg.config.MESH').devices.shape[0]", "import pydoc"))
a("a27_function_globals", reader("return forward.__globals__['MESH'].devices.shape[0]", "from pkg.model import forward"))
a("a28_inspect_getmodule", reader("return inspect.getmodule(forward).MESH.devices.shape[0]",
                                  "import inspect\nfrom pkg.model import forward"))
a("a29_attrgetter", reader("return operator.attrgetter('MESH')(config).devices.shape[0]",
                           "import operator\nfrom pkg import config"))
a("a30_default_parameter", {"pkg/reader.py": "from pkg import config\n\n\ndef factor(m=config.MESH):\n"
                            "    return m.devices.shape[0]\n"})
a("a31_axis_types_len", reader("return len(MESH.axis_types)", "from pkg.config import MESH"))
a("a32_devices_tolist", reader("return len(MESH.devices.tolist())", "from pkg.config import MESH"))
a("a33_np_shape_devices", reader("return np.shape(MESH.devices)[0]", "import numpy as np\nfrom pkg.config import MESH"))
a("a34_shape_tuple", reader("return MESH.shape_tuple[0][1]", "from pkg.config import MESH"))
a("a35_abstract_mesh_sizes", reader("return MESH.abstract_mesh.axis_sizes[0]", "from pkg.config import MESH"))
a("a36_star_of_model", reader("return MESH.devices.shape[0]", "from pkg.model import *  # noqa: F403"))
a("a37_model_reexport_attr", reader("return model.MESH.devices.shape[0]", "from pkg import model"))
a("a38_match_shape", reader("match MESH.devices.shape:\n    case (n, _):\n        return n\n    case _:\n        return 1",
                            "from pkg.config import MESH"))
a("a39_shape_batch_key_try", reader("try:\n    return 2 * MESH.shape['batch']\nexcept KeyError:\n    return 2",
                                    "from pkg.config import MESH"))
a("a40_shape_get", reader("return 2 * MESH.shape.get('batch', 1)", "from pkg.config import MESH"))
a("a41_exec_import", reader("ns = {}\nexec('from pkg.config import MESH', ns)\nreturn ns['MESH'].devices.shape[0]"))
a("a42_package_attr_after_import", reader("return pkg.config.MESH.devices.shape[0]", "import pkg.model"))
a("a43_simple_namespace_vars", reader("return types.SimpleNamespace(**vars(config)).MESH.devices.shape[0]",
                                      "import types\nfrom pkg import config"))
a("a44_class_attribute_other_module", reader("return Holder.mesh.devices.shape[0]",
                                             "from pkg.config import MESH\n\n\nclass Holder:\n    mesh = MESH"))
a("a45_local_import_as", reader("import pkg.config as cfg\nreturn cfg.MESH.devices.shape[0]"))
a("a46_from_import_in_class", reader("return R.MESH.devices.shape[0]", "class R:\n    from pkg.config import MESH"))
a("a47_globals_of_config_function", {**reader("return build.__globals__['MESH'].devices.shape[0]", "from pkg.config import build")},
  config=CONFIG + "\n\ndef build():\n    return MESH\n")
a("a48_shape_values", reader("return list(MESH.shape.values())[0]", "from pkg.config import MESH"))
a("a49_contextvar_with_mesh", reader("with MESH as m:\n    return m.devices.shape[0]", "from pkg.config import MESH"))
a("a50_mesh_in_tuple", reader("return MESHES[0].devices.shape[0]", "from pkg.config import MESH\n\nMESHES = (MESH,)"))

a("a51_module_getattribute", reader("return config.__getattribute__('MESH').devices.shape[0]", "from pkg import config"))
a("a52_object_getattribute", reader("return object.__getattribute__(config, 'MESH').devices.shape[0]", "from pkg import config"))
a("a53_sys_path_bare_import", {"tools/report.py": "import sys\n\nsys.path.insert(0, 'pkg')\nimport config  # noqa: E402\n\n\n"
                               "def factor():\n    return config.MESH.devices.shape[0]\n"},
  pre="import sys\nsys.path.insert(0, 'tools')\n", imp="from report import factor")

# notebooks: main.py runs the code cells as IPython does for these magics (`%%time` / `%%capture` run the cell's
# body in the user namespace; `%time STMT` runs STMT)
RUN_NB = """import json


def run_notebook(path):
    ns = {}
    for cell in json.load(open(path))["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        if lines and lines[0].startswith("%%"):
            lines = lines[1:]
        lines = [l.split(None, 1)[1] if l.startswith(("%time ", "%timeit ")) else l for l in lines]
        exec("\\n".join(lines), ns)
    return ns
"""


def nb(*cells):
    out = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": c.splitlines(keepends=True)} for c in cells]
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    return json.dumps({"cells": out, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


a("a54_notebook_cell_magic_time", {"run_nb.py": RUN_NB, "notebooks/explore.ipynb": nb(
    "from pkg.config import MESH\n", "%%time\ngroups = MESH.devices.shape[0]\n")},
  imp="from run_nb import run_notebook", call="run_notebook('notebooks/explore.ipynb')['groups']")
a("a55_notebook_cell_magic_capture", {"run_nb.py": RUN_NB, "notebooks/explore.ipynb": nb(
    "%%capture out\nfrom pkg.config import MESH\ngroups = MESH.devices.shape[0]\nprint(groups)\n")},
  imp="from run_nb import run_notebook", call="run_notebook('notebooks/explore.ipynb')['groups']")
a("a56_notebook_line_magic_time", {"run_nb.py": RUN_NB, "notebooks/explore.ipynb": nb(
    "from pkg.config import MESH\n", "%time groups = MESH.devices.shape[0]\n")},
  imp="from run_nb import run_notebook", call="run_notebook('notebooks/explore.ipynb')['groups']")


# ---- s: the spec constant read by another module (strip) ----
MODEL_S = """import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH

ROWS = P(DATA, None)


def forward(x):
    return jax.shard_map(lambda a: a * 2.0, mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)
"""
TRAIN_S = """import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, spmd_axis_name=DATA)
"""
MAIN_S = """import numpy as np

from pkg.stats import colsum
from pkg.train import step


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    out = np.asarray(step(xs))
    got = np.asarray(colsum(xs[0]))
    ref = xs * 2.0
    want = xs[0].reshape(2, 4, 16).sum(1)
    ok = np.allclose(out, ref, atol=1e-4) and got.shape == want.shape and np.allclose(got, want, atol=1e-4)
    print("RESULT: match" if ok else "RESULT: mismatch")


if __name__ == "__main__":
    main()
"""
STATS = """import jax
{head}
from pkg.config import MESH


def colsum(x):
    spec = {spec}
    return jax.shard_map(lambda b: b.sum(0, keepdims=True), mesh=MESH, in_specs=spec, out_specs=spec)(x)
"""


def s(name, head, spec, path="pkg/stats.py", imp=None, files=None):
    """A strip program: pkg/stats.py (or `path`) reads ROWS as `spec` after `head` and sums each block."""
    main = MAIN_S if imp is None else MAIN_S.replace("from pkg.stats import colsum", imp)
    P[name] = {"pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL_S, "pkg/train.py": TRAIN_S,
               path: STATS.format(head=head, spec=spec), **(files or {}), "main.py": main}


s("s01_from_import_control", "from pkg.model import ROWS", "ROWS")
s("s02_pkgutil_resolve_name", "import pkgutil", "pkgutil.resolve_name('pkg.model:ROWS')")
s("s03_module_dunder_dict", "from pkg import model", "model.__dict__['ROWS']")
s("s04_function_globals", "from pkg.model import forward", "forward.__globals__['ROWS']")
s("s05_vars_module", "from pkg import model", "vars(model)['ROWS']")
s("s06_sys_modules", "import sys\nimport pkg.model  # noqa: F401", "sys.modules['pkg.model'].ROWS")
s("s07_subpackage_named_dist", "from pkg.model import ROWS", "ROWS", path="pkg/dist/stats.py",
  imp="from pkg.dist.stats import colsum", files={"pkg/dist/__init__.py": ""})
s("s08_star_of_model", "from pkg.model import *  # noqa: F403", "ROWS")
s("s09_pydoc_locate", "import pydoc", "pydoc.locate('pkg.model.ROWS')")
s("s10_inspect_getmodule", "import inspect\nfrom pkg.model import forward", "inspect.getmodule(forward).ROWS")
s("s11_function_local_import", "", "__import__('pkg.model', fromlist=['ROWS']).ROWS")
s("s12_init_reexport", "import pkg", "pkg.ROWS", files={"pkg/__init__.py": "from .model import ROWS  # noqa: F401\n"})
s("s13_subpackage_named_build", "from ..model import ROWS", "ROWS", path="pkg/build/stats.py",
  imp="from pkg.build.stats import colsum", files={"pkg/build/__init__.py": ""})


def write():
    out = HERE / "progs"
    shutil.rmtree(out, ignore_errors=True)
    for name, files in P.items():
        d = out / name
        for rel, text in {"pyproject.toml": PYPROJECT.format(name=name.replace("_", "-")), **files}.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
    print(len(P), "programs")


if __name__ == "__main__":
    write()
