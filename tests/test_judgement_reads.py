"""Issue 20, how much the judgement of a cross-module fix reads: every module importing the edited module is
read whatever the index's `max_modules` (`ProjectIndex.load(capped=False)`: past the limit add-axis was unsafe
only because modules were not read), and a module that imports it only indirectly, which is judged for its
`.sharding` reads alone, is read but not parsed when its text does not hold the word `sharding`
(`ProjectIndex.peek`), and still counts as read for the results cache (`ProjectIndex.recording`)."""

from __future__ import annotations

from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import check_source, new_project_index
from spmdfix.model import Applicability, Options
from test_cross_module_safety import CONFIG, MODEL, TRAIN

PLACE = (
    "import jax\nfrom jax.sharding import NamedSharding, PartitionSpec as P\n\nfrom .config import MESH, MODEL\n\n\n"
    "def place(w):\n    return jax.device_put(w, NamedSharding(MESH, P(None, MODEL)))\n"
)


def _project(tmp_path: Path, extra: dict[str, str]) -> Path:
    pkg = tmp_path / "pkg"
    pkg.mkdir(parents=True, exist_ok=True)
    files = {"__init__.py": "", "config.py": CONFIG, "model.py": MODEL, "train.py": TRAIN, "data.py": PLACE, **extra}
    for name, text in files.items():
        (pkg / name).write_text(text)
    project_graph.forget_graphs()
    return tmp_path.resolve()


def _add_axis(root: Path, index):
    train = root / "pkg" / "train.py"
    with index.recording() as read:
        findings = check_source(train.read_text(), Options(), path=train, index=index)
    assert findings, "the collision is found"
    (fix,) = [fix for fix in findings[0].fixes if fix.title.startswith("Add mesh axis")]
    return fix, dict(read)


def test_importers_past_the_index_limit_are_read_for_the_judgement(tmp_path: Path) -> None:
    users = {f"user{i}.py": f"from . import config\n\nNAME{i} = config.DATA\n" for i in range(6)}
    root = _project(tmp_path, users)
    index = new_project_index(root, max_modules=3)
    fix, _ = _add_axis(root, index)
    assert fix.applicability is Applicability.SAFE, fix.reason
    assert "module not read or parsed" not in fix.reason
    assert index.parsed <= 3 and index.judged >= 6

    (root / "pkg" / "user5.py").write_text("from . import config\n\nN = len(config.MESH.axis_names)\n")
    project_graph.forget_graphs()
    fix, _ = _add_axis(root, new_project_index(root, max_modules=3))
    assert fix.applicability is Applicability.UNSAFE
    assert "`len(config.MESH.axis_names)` (" in fix.reason and "pkg/user5.py line 3)" in fix.reason, fix.reason


def test_an_indirect_importer_without_the_word_sharding_is_read_not_parsed(tmp_path: Path) -> None:
    helper = "from .data import place\n\n\ndef ready(w):\n    return place(w)\n"
    root = _project(tmp_path, {"helper.py": helper})
    index = new_project_index(root)
    fix, read = _add_axis(root, index)
    assert fix.applicability is Applicability.SAFE, fix.reason
    path = str(root / "pkg" / "helper.py")
    assert path not in index._by_path and path in index._peeked
    assert read[path] == index._peeked[path]  # (a dependency of the result: the cache keys it by the file)

    reader = helper + "\n\ndef groups(w):\n    return ready(w).sharding.mesh.devices.shape[0]\n"
    (root / "pkg" / "helper.py").write_text(reader)
    project_graph.forget_graphs()
    fix, _ = _add_axis(root, new_project_index(root))
    assert fix.applicability is Applicability.UNSAFE
    assert "pkg/helper.py line 9)" in fix.reason, fix.reason
