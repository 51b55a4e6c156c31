"""The parsed modules shared between the project indexes of a process (`spmdfix.module_memo.ModuleMemo`): a
second index of the same files parses nothing again and finds what the first found; an index whose overlay
holds another text of a module gets that text's tree and scopes, never the file's."""

from __future__ import annotations

from pathlib import Path

from spmdfix.analysis.index import ProjectIndex
from spmdfix.module_memo import ModuleMemo
from spmdfix.project_files import DISK

CONFIG = 'DATA = "data"\nMODEL = "model"\n'


def index(root: Path, memo: ModuleMemo, overlay: dict[str, str] | None = None) -> ProjectIndex:
    return ProjectIndex(str(root), files=DISK, analyse=memo.build, parse=memo.parse, overlay=overlay)


def test_a_second_index_parses_nothing_again_and_an_overlay_text_is_its_own(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(CONFIG)
    config = str((pkg / "config.py").resolve())
    memo = ModuleMemo()
    first = index(tmp_path.resolve(), memo)
    assert first.resolve("pkg.config.DATA") is not None
    parsed = memo.parsed
    second = index(tmp_path.resolve(), memo)
    found = second.resolve("pkg.config.DATA")
    assert found is not None and found[1] == "DATA" and memo.parsed == parsed
    assert found[0].model.ix is first.load(config).model.ix  # the scopes are shared...
    assert found[0].model is not first.load(config).model  # ...the model (values, summaries) is not
    assert found[0].model.project.index is second
    edited = index(tmp_path.resolve(), memo, {config: CONFIG.replace("DATA", "BATCH")})
    assert edited.resolve("pkg.config.DATA") is None and edited.resolve("pkg.config.BATCH") is not None
    assert memo.parsed == parsed + 1
    assert second.resolve("pkg.config.DATA") is not None  # (the disk text's index is as it was)


def test_the_memo_keeps_at_most_its_limit(tmp_path: Path) -> None:
    memo = ModuleMemo(max_kept=2)
    for i in range(4):
        memo.parse(f"/m{i}.py", str(i), f"x = {i}\n")
    assert memo.parsed == 4 and len(memo._kept) == 2 and len(memo._by_tree) == 2
    tree = memo.parse("/m3.py", "3", "x = 3\n")
    assert memo.parsed == 4
    assert memo.parse("/m3.py", "3", "x = 33\n") is not tree  # (same digest given, another text: parsed)


def test_the_disk_module_name_is_the_path_based_one(tmp_path: Path) -> None:
    """`DiskFiles.module_name` (strings, as the index asks it of every module it loads) answers as
    `project_files.module_name` (paths) for modules of packages, a package's `__init__`, a module outside any
    package, a linked module, and a path that does not exist."""
    from spmdfix.project_files import module_name

    (tmp_path / "top" / "pkg" / "sub").mkdir(parents=True)
    for init in ("top/pkg/__init__.py", "top/pkg/sub/__init__.py"):
        (tmp_path / init).write_text("")
    (tmp_path / "top" / "pkg" / "sub" / "layers.py").write_text("x = 1\n")
    (tmp_path / "top" / "alone.py").write_text("x = 1\n")
    (tmp_path / "top" / "link.py").symlink_to(tmp_path / "top" / "pkg" / "sub" / "layers.py")
    paths = ["top/pkg/sub/layers.py", "top/pkg/sub/__init__.py", "top/pkg/__init__.py", "top/alone.py", "top/link.py", "top/no/such.py"]
    for rel in paths:
        name, directory, is_package = module_name(tmp_path / rel)
        assert DISK.module_name(str(tmp_path / rel)) == (name, str(directory), is_package), rel
    assert DISK.module_name(str(tmp_path / "top/link.py"))[0] == "pkg.sub.layers"


def test_an_index_made_from_another_reads_the_files_as_that_one_did(tmp_path: Path) -> None:
    """`ProjectIndex(earlier=...)` (the index of a typed text, made from the kept index the language server has
    just found current): a module the earlier index loaded from its file is read as it read it (the same
    text and digest, its module name not asked again), one it held an unsaved text of is read from the file,
    one it never loaded from the file, and the new index's own overlay comes first."""
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name in ("config", "buffered", "later", "edited"):
        (pkg / f"{name}.py").write_text(CONFIG)
    path = {name: str((pkg / f"{name}.py").resolve()) for name in ("config", "buffered", "later", "edited")}
    memo = ModuleMemo()
    root = tmp_path.resolve()
    earlier = index(root, memo, {path["buffered"]: CONFIG + "UNSAVED = 1\n"})
    for name in ("config", "buffered", "edited"):
        assert earlier.load(path[name]) is not None
    digest = earlier.digest_of(path["config"])
    for name in ("config", "buffered", "later", "edited"):
        (pkg / f"{name}.py").write_text(CONFIG + "ON_DISK = 2\n")  # (changed behind the earlier index's back)

    asked: list[str] = []

    class Files(type(DISK)):
        def module_name(self, p: str):
            asked.append(p)
            return super().module_name(p)

    new = ProjectIndex(
        str(root), files=Files(), analyse=memo.build, parse=memo.parse, earlier=earlier,
        overlay={path["edited"]: CONFIG + "TYPED = 3\n"},
    )
    config = new.load(path["config"])
    assert config is not None and config.summary.digest == digest and "ON_DISK" not in config.model.ix.source
    assert path["config"] not in asked  # (named by the earlier index)
    assert "ON_DISK" in new.load(path["buffered"]).model.ix.source  # (the earlier one's was a buffer's)
    assert "ON_DISK" in new.load(path["later"]).model.ix.source  # (never loaded by the earlier one)
    edited = new.load(path["edited"]).model.ix.source
    assert "TYPED" in edited and "ON_DISK" not in edited  # (its own overlay first)
