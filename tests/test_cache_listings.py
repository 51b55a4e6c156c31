"""The directory listings the results cache keeps (`discovery.ListingMemo`) never serve a stale walk: after a
file is added, removed or renamed, an ignore file (of the directory, of one above it, of the git work tree
above the path given) or a configuration file is edited, or the command line's excludes or
`--no-respect-gitignore` change, a cached walk finds what a walk without the cache finds. Each test also
checks that the unchanged directories were served from the memo, so that it exercises the memo."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

import pytest

from spmdfix import cache as cache_module
from spmdfix import config
from spmdfix import stamps as stamps_module
from spmdfix.cache import Cache
from spmdfix.cli.invocation import Run

SETTLE_NS = 20_000_000  # RACY_NS in these tests: a directory changed 20 ms before a walk may be recorded


def _kw(paths: tuple[str, ...], **options) -> dict:
    """The options `Run` takes, at `spmdfix check`'s defaults."""
    kw = {
        "new_axis": None,
        "select": (),
        "ignore": (),
        "exclude": (),
        "extend_exclude": (),
        "unsafe_fixes": None,
        "target_jax_version": None,
        "config_file": None,
        "paths": tuple(Path(p) for p in paths),
        "silent": False,
        "quiet": True,
        "stdin_filename": None,
        "respect_gitignore": True,
        "force_exclude": False,
        "include_generated": False,
        "max_file_size": 10,
        "jobs": None,
        "no_cache": False,
        "cache_dir": None,
    }
    return {**kw, **options}


def walk(cache_dir: Path, *paths: str, **options) -> tuple[list[str], int]:
    """The files a cached `spmdfix check` walks (the CLI's `Run` with its results cache's listing memo,
    saved as a run saves it), asserted equal to what a walk without the cache finds; and how many
    directories the memo served."""
    time.sleep(2 * SETTLE_NS / 1e9)  # what the test just changed is settled: the walk may record it
    config._parsed_toml.cache_clear()  # as in a new process
    run = Run(_kw(paths or (".",), **options))
    cache = Cache(cache_dir)
    memo = cache.listing_memo(run.exclude_key)
    found = [p.as_posix() for p in run.sources(memo)]
    cache.save()
    fresh = [p.as_posix() for p in Run(_kw(paths or (".",), **options)).sources()]
    assert found == fresh
    return found, memo.served


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(stamps_module, "RACY_NS", SETTLE_NS)
    root = tmp_path / "tree"
    for name in ("a.py", "pkg/b.py", "pkg/sub/c.py", "pkg/sub/d.py", "other/e.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")
    monkeypatch.chdir(root)
    return root


def test_an_unchanged_tree_is_served_from_the_memo(tree: Path) -> None:
    cold, served = walk(tree.parent / "c")
    assert cold == ["a.py", "other/e.py", "pkg/b.py", "pkg/sub/c.py", "pkg/sub/d.py"] and served == 0
    again, served = walk(tree.parent / "c")
    assert again == cold and served == 4  # the root, other/, pkg/, pkg/sub/
    assert Cache(tree.parent / "c").listings_file.exists()


@pytest.mark.parametrize(
    "change, present, absent",
    [
        (lambda t: (t / "pkg/sub/new.py").write_text(""), "pkg/sub/new.py", None),
        (lambda t: (t / "pkg/sub/c.py").unlink(), None, "pkg/sub/c.py"),
        (lambda t: (t / "pkg/sub/c.py").rename(t / "pkg/sub/f.py"), "pkg/sub/f.py", "pkg/sub/c.py"),
        (lambda t: (t / "pkg/new").mkdir() or (t / "pkg/new/g.py").write_text(""), "pkg/new/g.py", None),
    ],
    ids=["added", "removed", "renamed", "new-directory"],
)
def test_an_added_removed_or_renamed_entry_is_never_served_stale(tree: Path, change, present, absent) -> None:
    walk(tree.parent / "c")
    change(tree)
    found, served = walk(tree.parent / "c")
    assert present is None or present in found
    assert absent is None or absent not in found
    assert served >= 2  # the root and other/ did not change


def test_an_edited_ignore_file_is_never_served_stale(tree: Path) -> None:
    (tree / "pkg" / ".gitignore").write_text("# nothing yet\n")
    walk(tree.parent / "c")
    (tree / "pkg" / ".gitignore").write_text("sub/c.py\n")  # the directory pkg/ itself is unchanged
    found, served = walk(tree.parent / "c")
    assert "pkg/sub/c.py" not in found and served >= 2
    (tree / "pkg" / ".gitignore").write_text("# nothing again\n")  # the same size as the first text
    found, _ = walk(tree.parent / "c")
    assert "pkg/sub/c.py" in found


def test_an_ignore_file_created_above_the_path_given_is_never_served_stale(tree: Path) -> None:
    """The ignore files of the git work tree above the path walked apply too (and .git/info/exclude)."""
    (tree / ".git" / "info").mkdir(parents=True)
    (tree / ".gitignore").write_text("# nothing yet\n")
    walk(tree.parent / "c", "pkg")
    (tree / ".gitignore").write_text("c.py\n")
    found, served = walk(tree.parent / "c", "pkg")
    assert found == ["pkg/b.py", "pkg/sub/d.py"] and served == 0  # every directory below the edited file
    (tree / ".gitignore").write_text("# nothing again\n")
    (tree / ".git" / "info" / "exclude").write_text("d.py\n")
    found, _ = walk(tree.parent / "c", "pkg")
    assert found == ["pkg/b.py", "pkg/sub/c.py"]


def test_an_edited_configuration_file_is_never_served_stale(tree: Path) -> None:
    """Excludes come from the closest configuration file: editing it changes no directory's stamp."""
    (tree / "pkg" / "spmdfix.toml").write_text('extend-exclude = ["zzz"]\n')
    walk(tree.parent / "c")
    (tree / "pkg" / "spmdfix.toml").write_text('extend-exclude = ["sub"]\n')
    found, served = walk(tree.parent / "c")
    assert found == ["a.py", "other/e.py", "pkg/b.py"] and served == 2  # the root and other/


def test_other_command_line_excludes_are_never_served_stale(tree: Path) -> None:
    walk(tree.parent / "c")
    found, _ = walk(tree.parent / "c", extend_exclude=("b.py",))
    assert "pkg/b.py" not in found
    found, _ = walk(tree.parent / "c", exclude=("other",))
    assert "other/e.py" not in found and "pkg/b.py" in found


def test_respecting_gitignore_or_not_is_never_served_stale(tree: Path) -> None:
    (tree / "pkg" / ".gitignore").write_text("b.py\n")
    walk(tree.parent / "c")
    found, served = walk(tree.parent / "c")
    assert "pkg/b.py" not in found and served == 4
    found, served = walk(tree.parent / "c", respect_gitignore=False)
    assert "pkg/b.py" in found and served == 0


def test_a_directory_changed_just_now_is_not_recorded(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change in the clock tick of the directory's stamp would keep its times: such a directory is listed
    again by the next walk rather than served."""
    monkeypatch.setattr(stamps_module, "RACY_NS", 3_600 * 10**9)
    run = Run(_kw((".",)))
    cache = Cache(tree.parent / "c")
    memo = cache.listing_memo(run.exclude_key)
    list(run.sources(memo))
    assert memo.changed == {}


def test_a_directory_with_a_symbolic_link_is_not_recorded(tree: Path) -> None:
    """What a link points to can change while its directory does not."""
    target = tree.parent / "target"
    target.mkdir()
    (tree / "pkg" / "link.py").symlink_to(target)  # a link to a directory: not a source file
    assert "pkg/link.py" not in walk(tree.parent / "c")[0]
    target.rmdir()
    target.write_text("x = 1\n")  # the link now leads to a file, and pkg/ is unchanged
    found, served = walk(tree.parent / "c")
    assert "pkg/link.py" in found and served == 3


def test_a_forged_listing_is_not_followed(tree: Path) -> None:
    """A record naming a path out of its directory is not a listing: the directory is listed again."""
    walk(tree.parent / "c")
    file = Cache(tree.parent / "c").listings_file
    fmt, plain = pickle.loads(file.read_bytes())
    key, context, kept, held = plain[str(tree / "pkg")]
    plain[str(tree / "pkg")] = (key, context, (*kept, ("../../../etc/passwd.py", False)), held)
    file.write_bytes(pickle.dumps((fmt, plain)))
    found, _ = walk(tree.parent / "c")
    assert not any("passwd" in p for p in found)


def test_another_tool_version_never_reads_the_listings(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walk(tree.parent / "c")
    monkeypatch.setattr(cache_module, "tool_key", lambda: "0.2.0-0123456789abcdef")
    _, served = walk(tree.parent / "c")
    assert served == 0


def test_listings_of_removed_directories_are_dropped_when_saving(tree: Path) -> None:
    walk(tree.parent / "c")
    for name in ("c.py", "d.py"):
        (tree / "pkg" / "sub" / name).unlink()
    os.rmdir(tree / "pkg" / "sub")
    walk(tree.parent / "c")
    _, plain = pickle.loads(Cache(tree.parent / "c").listings_file.read_bytes())
    assert str(tree / "pkg" / "sub") not in plain and str(tree / "pkg") in plain
