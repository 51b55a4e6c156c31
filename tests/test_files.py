"""Reading and writing keep every byte: encodings, BOM, CRLF, permissions; refusals leave files alone."""

from __future__ import annotations

import io
import os
import stat
import tokenize
from pathlib import Path

import pytest

from spmdfix import files as files_module
from spmdfix.files import FileError, decode, read_source, write_source
from spmdfix.diffs import unified_diff


def test_bom_cookie_and_crlf_round_trip(tmp_path: Path) -> None:
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfx = 'a'\r\ny = 2\r\n")
    src = read_source(bom)
    assert src.text == "x = 'a'\r\ny = 2\r\n"
    assert write_source(src, src.text.replace("2", "3"))
    assert bom.read_bytes() == b"\xef\xbb\xbfx = 'a'\r\ny = 3\r\n"

    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n")
    src = read_source(latin)
    assert "é" in src.text
    write_source(src, src.text + "z = 1\n")
    assert latin.read_bytes() == b"# -*- coding: latin-1 -*-\nname = '\xe9'\nz = 1\n"


@pytest.mark.parametrize(
    "raw",
    [
        b"x = 1\n",
        b"",
        b"# -*- coding: ascii -*-\nx = 1\n",
        b"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = 1\n",
        b"x = 1\r# coding: cp1252\ry = 2\r",
        b"x = 1\n\ny = 2\n# coding: latin-1 (third line: not a cookie)\n",
    ],
)
def test_ascii_fast_path_decodes_as_detect_encoding_does(raw: bytes) -> None:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    src = decode(Path("m.py"), raw)
    assert (src.text, src.encoding) == (raw.decode(encoding), encoding)


@pytest.mark.parametrize(
    "raw",
    [
        "x = 'é'\n".encode(),
        b"\xef\xbb\xbfx = '\xc3\xa9'\n",  # a BOM
        b"\xef\xbb\xbf\xef\xbb\xbfx = 1\n",  # two: the second is dropped too
        "#!/usr/bin/env python\n# coding: latin-1\nx = 'é'\n".encode("latin-1"),  # a cookie: tokenize decides
        "x = 'é'\r\n# coding: utf-8 is on the third line\r\n".encode(),
    ],
)
def test_utf8_fast_path_decodes_as_detect_encoding_does(raw: bytes) -> None:
    """A non-ASCII module without a cookie on its first two lines is read without `tokenize`: the same text
    and encoding as detect_encoding gives (`utf-8-sig` after a BOM, whose character the text leaves out)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    src = decode(Path("m.py"), raw)
    assert (src.text, src.encoding) == (raw.decode(encoding).removeprefix("\ufeff"), encoding)


def test_unchanged_text_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    before = path.stat().st_mtime_ns
    assert write_source(read_source(path), "x = 1\n") is False
    assert path.stat().st_mtime_ns == before


def test_permissions_kept_and_read_only_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    os.chmod(path, 0o750)
    write_source(read_source(path), "x = 2\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    os.chmod(path, 0o444)
    with pytest.raises(FileError, match="read-only"):
        write_source(read_source(path), "x = 3\n")
    assert path.read_text() == "x = 2\n"


def test_file_changed_on_disk_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    src = read_source(path)
    path.write_text("x = 100\n")
    with pytest.raises(FileError, match="changed on disk"):
        write_source(src, "x = 2\n")
    assert path.read_text() == "x = 100\n"


def test_symlink_target_is_written(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("x = 1\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_source(read_source(link), "x = 2\n")
    assert link.is_symlink()
    assert target.read_text() == "x = 2\n"


def test_undecodable_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"x = '\xff'\n")
    with pytest.raises(FileError, match="cannot decode"):
        read_source(path)


def test_diff_marks_missing_final_newline() -> None:
    diff = unified_diff("a.py", "x = 1\ny = 2", "x = 1\ny = 3")
    assert diff.endswith("-y = 2\n\\ No newline at end of file\n+y = 3\n\\ No newline at end of file\n")


def test_diff_does_not_split_at_form_feed() -> None:
    diff = unified_diff("a.py", "a\x0cb\n", "a\x0cc\n")
    assert "-a\x0cb\n+a\x0cc\n" in diff


def test_undecodable_bytes_are_located_and_explained(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"import jax\nx = '\xff'\n")
    with pytest.raises(FileError) as err:
        read_source(path)
    assert str(err.value) == (
        "cannot decode as utf-8: byte 0xff at line 2, column 6 is not UTF-8 and the file has no PEP 263 coding cookie"
    )
    path.write_bytes(b"\xff = 1\n")  # on the first line tokenize itself refuses
    with pytest.raises(FileError, match="byte 0xff at line 1, column 1 is not UTF-8"):
        read_source(path)
    path.write_bytes(b"# coding: ascii\nx = '\xe9'\n")
    with pytest.raises(
        FileError, match=r"^cannot decode as ascii: byte 0xe9 at line 2, column 6 \(ordinal not in range"
    ):
        read_source(path)


@pytest.mark.parametrize(
    "path",
    ["{cwd}/a.py", "{cwd}/sub/b.py", "{parent}/other/c.py", "{parent}", "{cwd}", "{cwd}/../x.py", "/d.py", "e.py"],
)
def test_display_path_is_relpaths_answer(tmp_path: Path, monkeypatch, path: str) -> None:
    """Without os.path.relpath's work for a normal absolute path, the same answer as relpath gives."""
    from spmdfix.runner import display_path

    cwd = tmp_path / "work"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    given = Path(path.format(cwd=cwd, parent=tmp_path))
    rel = os.path.relpath(given)
    expected = (str(given) if rel.startswith("..") else rel).replace(os.sep, "/")
    assert display_path(given) == expected


def _set_back(path: Path, st: os.stat_result) -> None:
    """Give `path` the size and mtime it had at `st` (its ctime moves on: no user call can set it back)."""
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_project_index_text_follows_a_same_size_rewrite(tmp_path: Path, monkeypatch) -> None:
    """`files.source_of` (what the project index reads, kept for a long-lived language server) serves its
    cached text only while the whole stat is the same: a rewrite of the same size with the mtime set back
    still changes the ctime. (Keyed by size and mtime alone, the old text came back.)"""
    import spmdfix.stamps as stamps_module
    from spmdfix import files

    monkeypatch.setattr(stamps_module, "RACY_NS", 0)  # trust this second's stats: the key alone decides
    module = tmp_path / "meshes.py"
    module.write_text("AXIS = 'x'\n")
    before = os.stat(module)
    assert files.source_of(str(module)).text == "AXIS = 'x'\n"
    module.write_text("AXIS = 'y'\n")
    _set_back(module, before)
    assert files.source_of(str(module)).text == "AXIS = 'y'\n"


def test_project_index_text_changed_in_the_same_tick_is_read_again(tmp_path: Path, monkeypatch) -> None:
    """A file whose stat is within `stamps.RACY_NS` of now is read on every call, whatever its stat: a
    rewrite in the same clock tick can keep every field (simulated: the stat is frozen)."""
    from spmdfix import files

    module = tmp_path / "meshes.py"
    module.write_text("AXIS = 'x'\n")
    frozen = os.stat(module)
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: frozen if str(p) == str(module) else real_stat(p, *a, **k))
    assert files.source_of(str(module)).text == "AXIS = 'x'\n"
    module.write_text("AXIS = 'y'\n")
    assert files.source_of(str(module)).text == "AXIS = 'y'\n"


# --- several files written together (a fix across modules) -----------------------------------------------


def _three(tmp_path: Path) -> list:
    paths = []
    for name in ("a.py", "b.py", "c.py"):
        path = tmp_path / name
        path.write_text(f"{name[0]} = 1\n")
        paths.append(path)
    return paths


def test_written_together_writes_every_file(tmp_path: Path) -> None:
    paths = _three(tmp_path)
    sources = [read_source(p) for p in paths]
    written = files_module.write_together([(s, s.text.replace("1", "2")) for s in sources])
    assert written == [p.resolve() for p in paths]
    assert [p.read_text() for p in paths] == ["a = 2\n", "b = 2\n", "c = 2\n"]
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]


def test_written_together_writes_nothing_when_one_changed_on_disk(tmp_path: Path) -> None:
    """The second file changed since it was read: none is written (the first would be, one at a time), and
    the error names the file."""
    paths = _three(tmp_path)
    sources = [read_source(p) for p in paths]
    paths[1].write_text("b = 100\n")
    with pytest.raises(FileError, match="changed on disk") as err:
        files_module.write_together([(s, s.text.replace("1", "2")) for s in sources])
    assert err.value.path == paths[1].resolve()
    assert [p.read_text() for p in paths] == ["a = 1\n", "b = 100\n", "c = 1\n"]
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]


def test_written_together_writes_nothing_when_a_temporary_file_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The third file's new bytes cannot be written beside it (a full disk): the temporary files of the first
    two are removed and no file changes."""
    paths = _three(tmp_path)
    sources = [read_source(p) for p in paths]
    real = files_module._temporary_beside

    def failing(target, data, mode):
        if target.name == "c.py":
            raise OSError(28, "No space left on device")
        return real(target, data, mode)

    monkeypatch.setattr(files_module, "_temporary_beside", failing)
    with pytest.raises(FileError, match="No space left") as err:
        files_module.write_together([(s, s.text.replace("1", "2")) for s in sources])
    assert err.value.path == paths[2].resolve()
    assert [p.read_text() for p in paths] == ["a = 1\n", "b = 1\n", "c = 1\n"]
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]


def test_written_together_puts_back_what_it_replaced_when_a_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second rename fails: the first file, already replaced, gets its bytes as read back, and the third
    is never touched."""
    paths = _three(tmp_path)
    sources = [read_source(p) for p in paths]
    real, calls = os.replace, []

    def failing(src, dst):
        calls.append(dst)
        if Path(dst).name == "b.py" and len([c for c in calls if Path(c).name == "b.py"]) == 1:
            raise OSError(5, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(files_module.os, "replace", failing)
    with pytest.raises(FileError, match="Input/output error") as err:
        files_module.write_together([(s, s.text.replace("1", "2")) for s in sources])
    assert err.value.path == paths[1].resolve()
    assert [p.read_text() for p in paths] == ["a = 1\n", "b = 1\n", "c = 1\n"]
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]


def test_written_together_writes_nothing_when_a_file_it_rests_on_changed(tmp_path: Path) -> None:
    """A file the fixes were judged against (`rests_on`), not one they edit, holds other bytes than those
    judged: nothing is written, the error (`NotAsJudged`) names that file; with its bytes as judged, or absent
    as judged absent, the files are written (breaker20: model.py changed between add-axis's analysis of its
    specs and the write of config.py and train.py)."""
    from spmdfix.stamps import digest_bytes

    paths = _three(tmp_path)
    judged = tmp_path / "model.py"
    judged.write_text("specs = 1\n")
    missing = tmp_path / "absent.py"
    rests_on = [(str(judged), digest_bytes(b"specs = 1\n")), (str(missing), None), ("<importers>", "x")]
    sources = [read_source(p) for p in paths[:2]]
    judged.write_text("specs = 2\n")
    with pytest.raises(files_module.NotAsJudged, match="model.py changed on disk since the fix was judged") as err:
        files_module.write_together([(s, s.text.replace("1", "2")) for s in sources], rests_on)
    assert err.value.path == judged
    assert [p.read_text() for p in paths] == ["a = 1\n", "b = 1\n", "c = 1\n"]
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]
    missing.write_text("")  # (looked for and absent when judged: a module there now may change the judgement)
    judged.write_text("specs = 1\n")
    with pytest.raises(files_module.NotAsJudged) as err:
        write_source(sources[0], "a = 2\n", rests_on)
    assert err.value.path == missing and paths[0].read_text() == "a = 1\n"
    missing.unlink()
    assert files_module.write_together([(s, s.text.replace("1", "2")) for s in sources], rests_on)
    assert [p.read_text() for p in paths] == ["a = 2\n", "b = 2\n", "c = 1\n"]


def test_what_the_run_wrote_is_compared_with_the_bytes_its_write_replaced(tmp_path: Path) -> None:
    """`left_to_check`: a file the run wrote already holds its new text; what the judgement read of it is
    compared with the bytes that write replaced, and only the files the run did not write are left to be
    checked on disk."""
    from spmdfix.stamps import digest_bytes

    a, b = str(tmp_path / "a.py"), str(tmp_path / "b.py")
    replaced = {os.path.realpath(a): digest_bytes(b"old")}
    assert files_module.left_to_check([(a, digest_bytes(b"old")), (b, None), ("<root>", "r")], replaced) == [(b, None)]
    with pytest.raises(files_module.NotAsJudged) as err:
        files_module.left_to_check([(a, digest_bytes(b"other"))], replaced)
    assert err.value.path == Path(a)


def test_a_file_with_other_hard_links_is_not_replaced(tmp_path: Path) -> None:
    """A rename would give this name a new file and leave the other names the old text, silently; ruff writes
    in place (keeping the link), which is not atomic. The file is refused, saying how many links it has, and
    nothing of a write together is written."""
    paths = _three(tmp_path)
    os.link(paths[1], tmp_path / "b_copy.py")
    sources = [read_source(p) for p in paths]
    with pytest.raises(FileError, match="the file has 2 hard links") as err:
        files_module.write_together([(s, s.text.replace("1", "2")) for s in sources])
    assert err.value.path == paths[1].resolve()
    assert [p.read_text() for p in paths] == ["a = 1\n", "b = 1\n", "c = 1\n"]
    assert (tmp_path / "b_copy.py").read_text() == "b = 1\n" and os.stat(paths[1]).st_nlink == 2
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".spmdfix"]
    # (a symbolic link is followed and its target written: one file, one name)
    (tmp_path / "b_copy.py").unlink()
    os.symlink(paths[2], tmp_path / "c_link.py")
    assert write_source(read_source(tmp_path / "c_link.py"), "c = 3\n")
    assert paths[2].read_text() == "c = 3\n" and (tmp_path / "c_link.py").is_symlink()
