"""Fixes that span files (config.py's mesh, model.py's shard_map, train.py's vmap), seen from each front end:
`fix --diff` is the bytes `fix` writes, whatever each file's encoding (breaker20's trials,
safety/trials/breaker20/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix.cli import main
from spmdfix.diffs import file_diff

CONFIG = '''import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
'''
MODEL = '''import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH, MODEL


def forward(x, w):
    return jax.shard_map(
        lambda a, b: a * b, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)), out_specs=P(DATA, MODEL)
    )(x, w)
'''
TRAIN = '''import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)
'''
LATIN1 = "# -*- coding: latin-1 -*-\n# caf\xe9 na\xefve\n"


def _tree(root: Path, config: bytes, model: bytes, train: bytes) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "p"\n', encoding="utf-8")
    (root / "pkg" / "__init__.py").write_bytes(b"")
    (root / "pkg" / "config.py").write_bytes(config)
    (root / "pkg" / "model.py").write_bytes(model)
    (root / "pkg" / "train.py").write_bytes(train)
    return root


def _encoded_tree(root: Path) -> Path:
    """config.py in latin-1 (a cookie, a non-ASCII comment), model.py with a BOM, train.py with a BOM and
    CRLF: add-axis edits config.py and train.py, strip edits model.py."""
    return _tree(
        root,
        (LATIN1 + CONFIG).encode("latin-1"),
        b"\xef\xbb\xbf" + MODEL.encode(),
        b"\xef\xbb\xbf" + TRAIN.replace("\n", "\r\n").encode(),
    )


def _strict_apply(root: Path, diff: bytes) -> None:
    """Apply a unified diff as `git apply` does without fuzz: every context and removed line must equal the
    file's bytes at its place (a BOM, the encoding and the line ending included)."""
    chunks = re.split(rb"(?m)^--- a/", diff)[1:]
    assert chunks, diff
    for chunk in chunks:
        lines = chunk.splitlines(keepends=True)
        name = lines[0].rstrip(b"\r\n").decode("utf-8")
        assert lines[1].startswith(b"+++ b/" + name.encode("utf-8")), lines[1]
        old = (root / name).read_bytes().splitlines(keepends=True)
        new: list[bytes] = []
        at = 0
        body = lines[2:]
        k = 0
        while k < len(body):
            header = re.match(rb"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", body[k])
            assert header, body[k]
            start = int(header.group(1)) - (0 if header.group(2) == b"0" else 1)
            new += old[at:start]
            at = start
            k += 1
            while k < len(body) and not body[k].startswith(b"@@"):
                line = body[k]
                tail = k + 1 < len(body) and body[k + 1].startswith(b"\\ No newline")
                text = line[1:-1] if tail else line[1:]
                if line.startswith((b" ", b"-")):
                    assert old[at] == text, (name, old[at], text)
                    at += 1
                if line.startswith((b" ", b"+")):
                    new.append(text)
                k += 2 if tail else 1
        new += old[at:]
        (root / name).write_bytes(b"".join(new))


@pytest.mark.parametrize("strategy", [[], ["--strategy", "strip", "--unsafe-fixes"]], ids=["auto", "strip"])
def test_fix_diff_is_the_bytes_fix_writes_in_each_files_encoding(tmp_path: Path, monkeypatch, strategy) -> None:
    """`fix --diff .` applies (bytes matched, no fuzz) to a tree whose modules are latin-1, BOM and CRLF, and
    gives what `fix .` writes. On main the diff held UTF-8 text without the BOM: `git apply` refused it
    ("patch does not apply" at train.py:1 and at the latin-1 comment)."""
    shown = _encoded_tree(tmp_path / "shown")
    written = _encoded_tree(tmp_path / "written")
    monkeypatch.chdir(shown)
    result = CliRunner().invoke(main, ["fix", "--no-cache", "-j", "1", "--diff", *strategy, "."])
    assert result.exit_code == 1, result.output
    diff = result.stdout_bytes
    assert diff.startswith(b"--- a/pkg/"), diff
    monkeypatch.chdir(written)
    assert CliRunner().invoke(main, ["fix", "--no-cache", "-j", "1", *strategy, "."]).exit_code == 0
    named = re.findall(rb"(?m)^--- a/(\S+)", diff)
    assert named == sorted(named) and len(named) == (1 if strategy else 2), named
    before = {p.relative_to(shown): p.read_bytes() for p in shown.rglob("*.py")}
    _strict_apply(shown, diff)
    for path in sorted(written.rglob("*.py")):
        relative = path.relative_to(written)
        assert (shown / relative).read_bytes() == path.read_bytes(), relative
        if path.read_bytes() != before[relative]:  # a file the fix changed keeps its encoding and BOM
            assert path.read_bytes()[:3] == before[relative][:3]


def test_file_diff_keeps_the_bytes_of_each_line() -> None:
    """The diff of a latin-1 file's bytes holds its bytes (0xe9 stays one byte) and line 1's BOM."""
    old = b"\xef\xbb\xbfx = 1\r\n# caf\xe9\r\ny = 2\r\n"
    new = b"\xef\xbb\xbfx = 1\r\n# caf\xe9\r\ny = 3\r\n"
    diff = file_diff("pkg/m\u00e9.py", old, new)
    assert diff.startswith("--- a/pkg/m\u00e9.py\n+++ b/pkg/m\u00e9.py\n".encode("utf-8"))
    assert b" \xef\xbb\xbfx = 1\r\n # caf\xe9\r\n-y = 2\r\n+y = 3\r\n" in diff
    assert file_diff("a.py", b"x = 1", b"x = 2") == b"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n\\ No newline at end of file\n+x = 2\n\\ No newline at end of file\n"


def _plain_tree(root: Path, train: str = TRAIN) -> Path:
    return _tree(root, CONFIG.encode(), MODEL.encode(), train.encode())


def _diff_of(root: Path, monkeypatch, *args: str):
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, ["fix", "--no-cache", "-j", "1", "--diff", *args])


@pytest.mark.parametrize("target", [".", "pkg/train.py", "pkg/model.py"])
def test_noqa_on_the_vmap_line_holds_the_fix_back_in_every_run(tmp_path: Path, monkeypatch, target: str) -> None:
    """`# noqa: SPMD001` on train.py's vmap suppresses model.py's SPMD001 (README: either of its two lines); the
    add-axis fix of SPMD002 would change it, so no run applies it. On main `fix pkg/model.py` (a partial run,
    the importer's findings judged by model.py's comments alone) applied add-axis to config.py and train.py,
    while `fix .` and `fix pkg/train.py` applied none."""
    train = TRAIN.replace("spmd_axis_name=DATA)\n", "spmd_axis_name=DATA)  # noqa: SPMD001\n")
    result = _diff_of(_plain_tree(tmp_path, train), monkeypatch, target)
    assert result.exit_code == 0 and result.stdout == "", result.output
    assert "1 suppressed" in result.stderr, result.stderr


@pytest.mark.parametrize("how", [["--ignore", "SPMD001"], ["--config", 'per-file-ignores = { "pkg/model.py" = ["SPMD001"] }']])
def test_an_ignored_code_blocks_no_fix_in_a_partial_run(tmp_path: Path, monkeypatch, how: list[str]) -> None:
    """SPMD001 ignored (not suppressed): `check pkg/model.py` offers add-axis for SPMD002 and `fix .` applies it;
    `fix pkg/model.py` must apply it too. On main the partial run held the ignored finding as a suppressed
    one, which blocked the fix it shares: "fixes to apply: none; 1 finding left"."""
    whole = _diff_of(_plain_tree(tmp_path / "whole"), monkeypatch, *how, ".")
    partial = _diff_of(_plain_tree(tmp_path / "partial"), monkeypatch, *how, "pkg/model.py")
    assert whole.exit_code == 1 and "+MESH = Mesh(" in whole.stdout, whole.output
    assert partial.stdout == whole.stdout, partial.output


def test_stdin_says_why_a_fix_from_an_importers_vmap_is_not_applied(tmp_path: Path, monkeypatch) -> None:
    """`fix - --stdin-filename pkg/model.py --strategy strip`: the strip edits model.py only, but `fix` applies it
    from train.py's vmap (a partial run), which stdin mode does not run. On main stdin came back unchanged
    and stderr said nothing of why, while `fix pkg/model.py` stripped the specs; now it names the importer
    and the command that applies the fix."""
    root = _plain_tree(tmp_path)
    monkeypatch.chdir(root)
    args = ["fix", "--no-cache", "-", "--stdin-filename", "pkg/model.py", "--strategy", "strip", "--unsafe-fixes"]
    result = CliRunner().invoke(main, args, input=MODEL)
    assert result.exit_code == 1 and result.stdout == MODEL, result.output
    assert "applied from the vmap that places it here (in pkg/train.py)" in result.stderr, result.stderr
    assert "run `spmdfix fix pkg/model.py` to apply it" in result.stderr
    written = CliRunner().invoke(main, ["fix", "--no-cache", "-j", "1", "--strategy", "strip", "--unsafe-fixes", "pkg/model.py"])
    assert written.exit_code == 0 and "P(None, None)" in (root / "pkg" / "model.py").read_text(), written.output


def test_modules_whose_lines_end_in_a_lone_cr_are_fixed_as_check_offers(tmp_path: Path, monkeypatch) -> None:
    """config.py and train.py with "\\r" line endings (Python reads them): `check` offered add-axis `[*]`, and
    `fix` said "the recorded edits do not reproduce libcst's output" and wrote nothing (libcst prints such a
    module without its last "\\r"). Now `fix` writes add-axis across both, every line ending kept."""
    root = _tree(tmp_path, CONFIG.replace("\n", "\r").encode(), MODEL.encode(), TRAIN.replace("\n", "\r").encode())
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["fix", "--no-cache", "-j", "1", "."])
    assert result.exit_code == 0, result.output
    config = (root / "pkg" / "config.py").read_bytes()
    train = (root / "pkg" / "train.py").read_bytes()
    assert b'("batch", DATA, MODEL))\r' in config and b"\n" not in config, config
    assert train.endswith(b'spmd_axis_name="batch")\r') and b"\n" not in train, train
    compile(config, "config.py", "exec")
