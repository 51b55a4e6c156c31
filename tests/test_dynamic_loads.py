"""Loads by name (`importlib.import_module`, `__import__`) in cross-module judgment (issue 20's gap: one test
helper or plugin loader using importlib made add-axis unsafe in every module of the project).

A load whose name is a literal or a module constant is an import of that module (`analysis.dynamic_loads`,
the graph's edge: `import_scan`), and the module object it returns is judged as an import's binding is
(`analysis.importers`); any other load stays a site of its own, named. The golden trees
golden/{add-axis,refuse}/tree_dynamic_import_* pin the end-to-end outcome (and run under the oracle).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from golden import ROOT
from spmdfix import project_graph
from spmdfix.analysis.dynamic_loads import dynamic_loads, resolve_name
from spmdfix.api import check_source, new_project_index
from spmdfix.import_scan import DUNDER_IMPORT, Import, imports_of_bytes
from spmdfix.model import Applicability, Options
from test_cross_module_safety import _add_axis


def _loads(text: str, package: str | None = "pkg"):
    loads = dynamic_loads(ast.parse(text), package)
    return [(load.level, load.module, load.fromlist, load.returns) for load in loads.named], [
        ast.unparse(node) if not isinstance(node, ast.stmt) else type(node).__name__ for node in loads.unresolved
    ]


@pytest.mark.parametrize(
    ("text", "named", "unresolved"),
    [
        ("import importlib\nm = importlib.import_module('pkg.config')\n", [(0, "pkg.config", (), "pkg.config")], []),
        ("from importlib import import_module as load\nm = load('json')\n", [(0, "json", (), "json")], []),
        ("import importlib as il\nNAME = 'pkg.config'\nm = il.import_module(NAME)\n", [(0, "pkg.config", (), "pkg.config")], []),
        ("import importlib\nm = importlib.import_module('.config', 'pkg.sub')\n", [(0, "pkg.sub.config", (), "pkg.sub.config")], []),
        ("import importlib\nm = importlib.import_module('..config', package='pkg.sub')\n", [(0, "pkg.config", (), "pkg.config")], []),
        ("import importlib\nm = importlib.import_module('.config', __package__)\n", [(0, "pkg.config", (), "pkg.config")], []),
        ("m = __import__('pkg.config')\n", [(0, "pkg.config", (), "pkg")], []),
        ("m = __import__('pkg.config', globals(), locals(), ['MESH'], 0)\n", [(0, "pkg.config", ("MESH",), "pkg.config")], []),
        ("import importlib.metadata\nv = importlib.metadata.version('jax')\n", [], []),
        ("import importlib.util\nHAS = importlib.util.find_spec('torch') is not None\n", [], []),
        ('"""Loads modules with __import__ and importlib."""\n', [], []),
        ("import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n", [], ["importlib.import_module"]),
        ("import importlib\nm = importlib.import_module(f'pkg.{x}')\n", [], ["importlib.import_module"]),
        ("import importlib\nm = importlib.import_module('pkg.' + x)\n", [], ["importlib.import_module"]),
        ("import importlib\nNAME = 'a'\nNAME = 'pkg.config'\nm = importlib.import_module(NAME)\n", [], ["importlib.import_module"]),
        ("import importlib\nNAME = 'pkg.config'\n\n\ndef f(NAME):\n    return importlib.import_module(NAME)\n", [], ["importlib.import_module"]),
        ("import importlib\nm = importlib.import_module('.config')\n", [], ["importlib.import_module"]),
        ("import importlib\nload = importlib.import_module\n", [], ["importlib.import_module"]),
        ("from importlib import util\nspec = util.spec_from_file_location('m', p)\n", [], ["util.spec_from_file_location"]),
        ("import importlib.util\nspec = importlib.util.find_spec('pkg.config')\n", [], ["importlib.util.find_spec"]),
        ("import builtins\nload = getattr(builtins, '__import__')\n", [], ["getattr(builtins, '__import__')"]),
        ("x = eval(\"__import__('pkg.config')\")\n", [], ["eval(\"__import__('pkg.config')\")"]),
        ("m = __import__('pkg.config', level=1)\n", [], ["__import__"]),
        ("m = __import__(name)\n", [], ["__import__"]),
        ("import sys\nN = sys.modules['pkg.config'].MESH\n", [], ["sys.modules"]),
        ("import sys as s\nm = s.modules.get('pkg.config')\n", [], ["s.modules"]),
        ("from sys import modules\nm = modules[__package__ + '.config']\n", [], ["modules"]),
        ("import runpy\nG = runpy.run_module('pkg.config')\n", [], ["runpy.run_module"]),
        ("from runpy import run_path\nG = run_path('src/pkg/config.py')\n", [], ["run_path"]),
        ("import sys\nsys.path.insert(0, 'src')\nA = sys.argv\n", [], []),
        # other loaders reaching a module's values by name or by an object (breaker19 a25-a28, s02, s09)
        ("import pkgutil\nM = pkgutil.resolve_name('pkg.config:MESH')\n", [], ["pkgutil.resolve_name"]),
        ("from pkgutil import resolve_name as rn\nM = rn('pkg.config.MESH')\n", [], ["rn"]),
        ("from pkgutil import *\nM = resolve_name('pkg.config:MESH')\n", [], ["resolve_name"]),
        ("import pkgutil\n__path__ = pkgutil.extend_path(__path__, __name__)\n", [], []),
        ("import pkgutil\nN = [m.name for m in pkgutil.iter_modules(['src'])]\n", [], []),
        ("import pydoc\nM = pydoc.locate('pkg.config.MESH')\n", [], ["pydoc.locate"]),
        ("import inspect\nfrom pkg.model import forward\nM = inspect.getmodule(forward).MESH\n", [], ["inspect.getmodule"]),
        ("import inspect\nG = inspect.getclosurevars(f).globals\n", [], ["inspect.getclosurevars"]),
        ("import inspect\nS = inspect.signature(f)\n", [], []),
        ("from pkg.model import forward\nM = forward.__globals__['MESH']\n", [], ["forward.__globals__"]),
        ("import sys\nM = sys._getframe(1).f_globals['MESH']\n", [], ["sys._getframe(1).f_globals"]),
        ("M = getattr(forward, '__globals__')['MESH']\n", [], ["getattr(forward, '__globals__')"]),
    ],
)
def test_a_load_names_its_module_only_when_the_name_is_written(text: str, named: list, unresolved: list) -> None:
    assert _loads(text) == (named, unresolved)


def test_the_scan_reads_a_load_of_a_literal_name_as_an_import_and_no_other_as_one() -> None:
    """The graph's edges: a literal load is an import of its module (relative to the module's package when
    it names `__package__`: the scan does not know the package); a load of any module is `DUNDER_IMPORT`."""
    literal = imports_of_bytes(b"import importlib\n\nm = importlib.import_module('pkg.config')\n")
    assert Import(0, "pkg.config", ()) in literal and DUNDER_IMPORT not in literal
    relative = imports_of_bytes(b"import importlib\n\nm = importlib.import_module('.config', __package__)\n")
    assert Import(1, "config", ()) in relative and DUNDER_IMPORT not in relative
    assert DUNDER_IMPORT in imports_of_bytes(b"import importlib\n\n\ndef f(n):\n    return importlib.import_module(n)\n")
    assert DUNDER_IMPORT in imports_of_bytes(b"import importlib\n\nthis does not parse(\n")
    assert DUNDER_IMPORT not in imports_of_bytes(b"import importlib.metadata\n\nV = importlib.metadata.version('jax')\n")
    assert DUNDER_IMPORT in imports_of_bytes(b"import sys\n\nN = sys.modules['pkg.config'].MESH\n")
    assert DUNDER_IMPORT in imports_of_bytes(b"import runpy\n\nG = runpy.run_module('pkg.config')\n")
    assert DUNDER_IMPORT not in imports_of_bytes(b"import sys\n\nsys.path.insert(0, 'src')\n")


def test_resolve_name_is_pythons() -> None:
    from importlib.util import resolve_name as python

    for name, package in [(".a", "pkg"), ("..a.b", "pkg.sub"), (".", "pkg.sub"), ("..", "pkg.sub")]:
        assert resolve_name(name, package) == python(name, package)
    assert resolve_name("...a", "pkg") is None


def test_the_graph_lists_a_literal_loader_as_an_importer_and_not_as_dynamic(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in {
        "__init__.py": "",
        "config.py": "MESH = None\n",
        "loader.py": "import importlib\n\nm = importlib.import_module('.config', __package__)\n",
        "any.py": "import importlib\n\n\ndef f(n):\n    return importlib.import_module(n)\n",
    }.items():
        (pkg / name).write_text(text)
    project_graph.forget_graphs()
    graph = project_graph.graph_of(tmp_path.resolve())
    config, loader, anything = (str((pkg / n).resolve()) for n in ("config.py", "loader.py", "any.py"))
    assert graph.importers_of(config) == {loader: frozenset({"<module>"})}
    assert graph.dynamic == {anything}


@pytest.mark.parametrize(
    ("name", "extra", "named"),
    [
        ("outside the project", {"loader.py": "import importlib\n\nJ = importlib.import_module('json')\n"}, None),
        ("unread", {"loader.py": "import importlib\n\nm = importlib.import_module('pkg.config')\n"}, None),
        (
            "read on the allowlist",
            {"loader.py": "import importlib\n\n\ndef ways():\n    return importlib.import_module('pkg.config').MESH.shape['model']\n"},
            None,
        ),
        ("another module of the project", {"other.py": "X = 1\n", "loader.py": "m = __import__('pkg.other').other\n"}, None),
        ("a condition", {"loader.py": "import importlib.util\n\nHAS = importlib.util.find_spec('pkg.config') is not None\n"}, None),
        (
            "read off the allowlist in a function",
            {"loader.py": "import importlib\n\n\ndef g():\n    cfg = importlib.import_module('pkg.config')\n    return cfg.MESH.devices.shape[0]\n"},
            "`return cfg.MESH.devices.shape[0]` (",
        ),
        (
            "a module constant",
            {"loader.py": "import importlib\nNAME = 'pkg.config'\nN = importlib.import_module(NAME).MESH.devices.shape[0]\n"},
            "`N = importlib.import_module(NAME).MESH.devices.shape[0]` (",
        ),
        (
            "relative to __package__",
            {"loader.py": "import importlib\n\nC = importlib.import_module('.config', __package__)\nN = len(C.MESH.axis_names)\n"},
            "`len(C.MESH.axis_names)` (",
        ),
        (
            "the package object of __import__",
            {"loader.py": "P = __import__('pkg.model')\nN = P.config.MESH.devices.shape[0]\n"},
            "`N = P.config.MESH.devices.shape[0]` (",
        ),
        (
            "passed on",
            {"loader.py": "import importlib\n\n\ndef g(f):\n    return f(importlib.import_module('pkg.config'))\n"},
            "`importlib.import_module('pkg.config')` (",
        ),
        (
            "re-exported to another module",
            {
                "loader.py": "import importlib\n\nm = importlib.import_module('pkg.config')\n",
                "user.py": "from .loader import m\n\nN = m.MESH.devices.shape[0]\n",
            },
            "pkg/user.py line 3)",
        ),
        ("a name not written", {"loader.py": "import importlib\n\n\ndef load(n):\n    return importlib.import_module(n)\n"}, "`importlib.import_module(n)` ("),
    ],
)
def test_a_load_by_name_is_judged_as_an_import_of_its_module(tmp_path: Path, name: str, extra: dict, named: str | None) -> None:
    fix = _add_axis(tmp_path, extra)
    if named is None:
        assert fix.applicability is Applicability.SAFE, (name, fix.reason)
    else:
        assert fix.applicability is Applicability.UNSAFE, name
        assert named in fix.reason and "line" in fix.reason, (name, fix.reason)


@pytest.mark.parametrize(
    ("name", "extra", "named"),
    [
        # (static imports: a module object re-exported, a submodule read off its package object)
        ("a module object re-exported", {"loader.py": "import pkg.config as m\n", "user.py": "from pkg.loader import m\n\nN = m.MESH.devices.shape[0]\n"}, "pkg/user.py line 3)"),
        ("through the re-exporting module", {"loader.py": "from . import config\n", "user.py": "from pkg import loader\n\nN = loader.config.MESH.devices.shape[0]\n"}, "pkg/user.py line 3)"),
        ("a submodule of the package object", {"user.py": "import pkg.model\n\nN = pkg.config.MESH.devices.shape[0]\n"}, "pkg/user.py line 3)"),
        ("a star import of the package", {"user.py": "from pkg import *\n"}, "pkg/user.py line 1)"),
    ],
)
def test_a_module_object_reaching_the_mesh_module_unseen_before_is_judged(
    tmp_path: Path, name: str, extra: dict, named: str
) -> None:
    """A wrong safe add-axis before: a module reading the mesh through a module object it did not import
    from pkg.config itself (`analysis.importers._importers`, the exports of `_reads_in`)."""
    fix = _add_axis(tmp_path, extra)
    assert fix.applicability is Applicability.UNSAFE, name
    assert named in fix.reason, (name, fix.reason)


def _tree_add_axis(case: str, tmp_path: Path):
    """The add-axis fixes of the findings at pkg/model.py's spec of a golden tree (project root: the tree)."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "golden" / case / "input", root)
    root = root.resolve()
    project_graph.forget_graphs()
    index = new_project_index(root)
    train = root / "pkg" / "train.py"  # (the vmap's module: the finding at model.py's spec with its fixes)
    findings = check_source(train.read_text(), Options(), path=train, index=index)
    assert findings
    return [fix for f in findings for fix in f.fixes if fix.title.startswith("Add mesh axis")]


@pytest.mark.parametrize(
    ("case", "named"),
    [
        ("add-axis/tree_dynamic_import_stdlib", ()),
        ("add-axis/tree_dynamic_import_mesh_allowlisted", ()),
        ("refuse/tree_dynamic_import_mesh_reader", ("`GROUPS = config.MESH.devices.shape[0]` (tests/helpers.py line 4)",)),
        ("refuse/tree_mesh_read_through_pkgutil_resolve_name", ("pkgutil.resolve_name('pkg.config:MESH')", "pkg/reader.py line 4)")),
        ("refuse/tree_mesh_read_through_function_globals", ("forward.__globals__['MESH']", "pkg/reader.py line 4)")),
        ("refuse/tree_mesh_read_through_exec_literal", ("`exec('from pkg.config import MESH', ns)` (", "pkg/reader.py line 3)")),
        ("refuse/tree_mesh_read_through_sys_path_bare_import", ("`return config.MESH.devices.shape[0]` (", "tools/report.py line 9)")),
        ("refuse/tree_mesh_returned_by_package_getattr", ("`return MESH` (", "pkg/__init__.py line 4)")),
        ("refuse/tree_mesh_read_through_module_getattribute", ("`config.__getattribute__('MESH')` (", "pkg/reader.py line 4)")),
        ("refuse/tree_mesh_reader_in_notebook_time_cell", ("`groups = MESH.devices.shape[0]` (", "notebooks/explore.ipynb cell 2 line 2)")),
        ("refuse/tree_mesh_reader_in_subpackage_named_dist", ("`return MESH.devices.shape[0]` (", "pkg/dist/info.py line 5)")),
        (
            "refuse/tree_dynamic_import_name",
            ("`import importlib` (tests/helpers.py line 1)", "`importlib.import_module(name)` (tests/helpers.py line 5)"),
        ),
    ],
)
def test_the_golden_trees_reason_names_the_site(case: str, named: tuple[str, ...], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # (a reason names a module by its path from the working directory)
    fixes = _tree_add_axis(case, tmp_path)
    assert fixes
    for fix in fixes:
        if not named:
            assert fix.applicability is Applicability.SAFE, fix.reason
        else:
            assert fix.applicability is Applicability.UNSAFE
            assert all(n.replace("(tests/", "(project/tests/") in fix.reason for n in named), fix.reason


@pytest.mark.parametrize(
    "text",
    [
        "import importlib\n\n\nclass Loaded:\n    cfg = importlib.import_module('pkg.config')\n\n\nN = Loaded.cfg.MESH.devices.shape[0]\n",
        "class Loaded:\n    import pkg.config as cfg\n\n\nN = Loaded.cfg.MESH.devices.shape[0]\n",
    ],
)
def test_a_module_object_bound_in_a_class_body_is_a_site(tmp_path: Path, text: str) -> None:
    """Read as a class attribute (`Loaded.cfg`), which the search by scope does not follow: named at the
    binding (line 5 or 2)."""
    fix = _add_axis(tmp_path, {"loader.py": text})
    assert fix.applicability is Applicability.UNSAFE
    assert "pkg/loader.py line 5)" in fix.reason or "pkg/loader.py line 2)" in fix.reason, fix.reason


def _executed(text: str, package: str | None = "pkg"):
    loads = dynamic_loads(ast.parse(text), package)
    return [(t.imports, sorted(t.reads)) for t in loads.executed], [ast.unparse(n) for n in loads.unresolved]


@pytest.mark.parametrize(
    ("text", "executed", "unresolved"),
    [
        # a literal text run: its imports and the names it reads (breaker19 a41)
        ("ns = {}\nexec('from pkg.config import MESH', ns)\n", [(((0, "pkg.config", ("MESH",)),), [])], []),
        ("N = eval('config.MESH.size')\n", [((), ["config"])], []),
        ("C = compile('import pkg.config\\nX = pkg.config.MESH', 'f', 'exec')\n", [(((0, "pkg.config", ()),), [])], []),
        ("import builtins\nbuiltins.exec('from . import config')\n", [(((1, "", ("config",)),), [])], []),
        ("from builtins import eval as run\nN = run('len(x)')\n", [((), ["x"])], []),
        ("exec(\"import importlib\\nm = importlib.import_module('pkg.config')\")\n", [(((0, "importlib", ()), (0, "pkg.config", (), )), [])], []),
        ("N = eval('1 + 2')\n", [((), [])], []),
        ("exec('this is ( not python')\n", [], []),
        # a string not written, or the builtin passed on: any module
        ("exec(open('setup_version.py').read())\n", [], ["exec(open('setup_version.py').read())"]),
        ("def f(expr, env):\n    return eval(expr, {}, env)\n", [], ["eval(expr, {}, env)"]),
        ("exec(f'import {name}')\n", [], ["exec(f'import {name}')"]),
        ("S = list(map(eval, xs))\n", [], ["eval"]),
        ("import builtins\nrun = getattr(builtins, 'exec')\n", [], ["getattr(builtins, 'exec')"]),
        ("import builtins\nrun = getattr(builtins, name)\n", [], ["getattr(builtins, name)"]),
        ("import builtins\nP = getattr(builtins, 'print')\nbuiltins.print(1)\n", [], []),
        ("import builtins\nsetup(builtins)\n", [], ["builtins"]),
        ("import sys\nexec('sys.modules[\"pkg.config\"]')\n", [], ["exec('sys.modules[\"pkg.config\"]')"]),
        ("exec('import sys\\nsys.modules[\"pkg.config\"]')\n", [], ["exec('import sys\\nsys.modules[\"pkg.config\"]')"]),
        # not the builtin: bound by a scope around the read (jax's shape_poly_test.py, aot_test.py), or an attribute
        ("def t(e):\n    def eval(d):\n        return d\n    return eval(e)\n", [], []),
        ("def t(*, compile, exec):\n    return dict(compile=compile, exec=exec)\n", [], []),
        ("K = [dict(compile=compile) for compile in (False, True)]\n", [], []),
        ("def eval(model, data):\n    return model(data)\n\n\nR = eval(m, d)\n", [], []),
        ("import re\nP = re.compile(pattern)\nC = jitted.lower(x).compile()\nmodel.eval()\n", [], []),
        ("class M:\n    def eval(self, x):\n        return x\n\n    def run(self, s):\n        return eval(s)\n", [], ["eval(s)"]),
        ("eval = None\n\n\ndef f():\n    global eval\n    return eval(s)\n", [], []),
        ("def f():\n    global exec\n    return exec(s)\n", [], ["exec(s)"]),
    ],
)
def test_a_string_run_is_read_by_its_text_or_may_load_any_module(text: str, executed: list, unresolved: list) -> None:
    """A literal text run by exec / eval / compile is parsed (`dynamic_loads.ExecutedText`); any other string
    run, or the builtin passed on, is an unresolved site; a name bound around the call is not the builtin."""
    assert _executed(text) == (executed, unresolved)


def test_the_scan_reads_the_imports_of_a_literal_text_run_and_any_other_string_run_as_any_module() -> None:
    literal = imports_of_bytes(b"def factor():\n    ns = {}\n    exec('from pkg.config import MESH', ns)\n")
    assert Import(0, "pkg.config", ("MESH",)) in literal and DUNDER_IMPORT not in literal
    assert DUNDER_IMPORT in imports_of_bytes(b"import sys\n\nexec(sys.stdin.read())\n")
    assert DUNDER_IMPORT in imports_of_bytes(b"def f(expr):\n    return eval(expr)\n")
    assert imports_of_bytes(b"import re\n\nP = re.compile(r'x')\n") == (Import(0, "re", ()),)
    assert imports_of_bytes(b'"""Run in eval mode, then compile and exec."""\n') == ()


@pytest.mark.parametrize(
    ("text", "safe", "named"),
    [
        ("def factor():\n    ns = {}\n    exec('from pkg.config import MESH', ns)\n    return ns['MESH'].size\n", False,
         "`exec('from pkg.config import MESH', ns)` (pkg/reader.py line 3)"),
        ("from pkg import config\n\n\ndef factor():\n    return eval('config.MESH.devices.shape[0]')\n", False,
         "`return eval('config.MESH.devices.shape[0]')` (pkg/reader.py line 5)"),
        ("def run(path):\n    exec(open(path).read(), {})\n", False, "`exec(open(path).read(), {})` (pkg/reader.py line 2)"),
        ("import numpy as np\nfrom pkg import config\n\nN = config.MESH.shape['data']\nS = eval('1 + 2')\nexec('import numpy')\n"
         "A = eval('np.ones(3)')\n", True, None),
        ("from pkg import config\n\n\ndef f():\n    m = config.MESH\n    return eval('m.devices.shape[0]')\n", False,
         "`return eval('m.devices.shape[0]')` (pkg/reader.py line 6)"),
    ],
)
def test_a_string_run_in_another_module_is_judged(tmp_path: Path, text: str, safe: bool, named: str | None, monkeypatch) -> None:
    """breaker19 a41: the call running a literal text that imports the mesh's module or reads a name is named (a
    text that does neither keeps the fix safe); a string not written may import any module."""
    monkeypatch.chdir(tmp_path)
    fix = _add_axis(tmp_path, {"reader.py": text})
    assert (fix.applicability is Applicability.SAFE) is safe, fix.reason
    if named:
        assert named in fix.reason, fix.reason


def _path_project(tmp_path: Path, report: str, extra: dict[str, str] | None = None) -> Path:
    """A project with pkg/ (config, model, train) and tools/report.py holding `report`."""
    from test_cross_module_safety import CONFIG, MODEL, TRAIN

    files = {"pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL, "pkg/train.py": TRAIN,
             "tools/report.py": report, **(extra or {})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    project_graph.forget_graphs()
    return tmp_path.resolve()


def test_a_bare_import_reaching_a_module_inside_a_package_is_an_import_by_that_name(tmp_path: Path) -> None:
    """breaker19 a53: `import config` naming no module from the root is an import of pkg/config.py, named by
    "<as config>"; a standard library name is not (`import typing` with pkg/typing.py)."""
    root = _path_project(tmp_path, "import sys\nsys.path.insert(0, 'pkg')\nimport config\nimport typing\nfrom sub import deep\n",
                         {"pkg/typing.py": "", "pkg/sub/__init__.py": "", "pkg/sub/deep.py": ""})
    graph = project_graph.graph_of(root, judged=True)
    report = str(root / "tools" / "report.py")
    assert graph.importers_of(str(root / "pkg" / "config.py"))[report] == frozenset({"<module>", "<as config>"})
    assert report not in graph.importers_of(str(root / "pkg" / "typing.py"))
    assert graph.importers_of(str(root / "pkg" / "sub" / "deep.py"))[report] == frozenset({"<module>", "<as sub.deep>"})
    assert graph.importers_of(str(root / "pkg" / "sub" / "__init__.py"))[report] == frozenset({"deep", "<as sub>"})


@pytest.mark.parametrize(
    ("report", "safe", "named"),
    [
        ("import sys\nsys.path.insert(0, 'pkg')\nimport config\n\n\ndef factor():\n    return config.MESH.devices.shape[0]\n",
         False, "`return config.MESH.devices.shape[0]` (tools/report.py line 7)"),
        ("import site\nsite.addsitedir('pkg')\nfrom config import MESH\n\nG = MESH.devices.shape[0]\n",
         False, "`G = MESH.devices.shape[0]` (tools/report.py line 5)"),
        ("import sys\nsys.path.insert(0, 'pkg')\nimport config\n\nN = config.MESH.shape['data']\n", True, None),
    ],
)
def test_a_module_imported_through_sys_path_is_judged_by_the_name_it_is_imported_by(
    tmp_path: Path, report: str, safe: bool, named: str | None, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    root = _path_project(tmp_path, report)
    index = new_project_index(root)
    train = root / "pkg" / "train.py"
    findings = check_source(train.read_text(), Options(), path=train, index=index)
    fixes = [fix for fix in findings[0].fixes if fix.title.startswith("Add mesh axis")]
    assert len(fixes) == 1
    assert (fixes[0].applicability is Applicability.SAFE) is safe, fixes[0].reason
    if named:
        assert named in fixes[0].reason, fixes[0].reason


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("exec(x)", True), ("x = eval\n", True), ("map(eval, xs)", True), ("eval (s)", True),
        ("import builtins as b\nb.exec(s)", True), ("from builtins import exec", True), ("builtins.exec(s)", True),
        ("getattr(builtins, n)", True), ('__builtins__["exec"]', True), ("__builtins__.exec(s)", True),
        ('x = "#"; eval(s)', True), ("    yield from eval(s)", True), ("import builtins; builtins.exec(s)", True),
        ("re.compile(x)", False), ("def compile(self):", False), ("import builtins\n", False), ("builtins.map(f)", False),
        ("# compile()", False), ("import levanter.eval as eval", False), ("# lm-eval", False), ("In eval mode", False),
        ("evaluate(s)", False), ('"compile"', False), ('"seconds to compile (%.2fs)"', False),
        ('f"{backend}: use compile() for"', False), ('f"{eval(s)}"', True), ('doc."""; eval(s)', True),
    ],
)
def test_the_cheap_test_before_a_parse_sees_each_spelling_of_a_read_of_the_builtins(text: str, runs: bool) -> None:
    from spmdfix.analysis.dynamic_loads import runs_text

    assert runs_text(text) is runs and runs_text(text.encode()) is runs
