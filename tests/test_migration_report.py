"""`spmdfix fix --report FILE`: the migration report lists every file, finding, fix choice and total of a run,
in Markdown and as one self-contained HTML page (read here as a person would: in headless Chromium).

The facts the report must show are taken from the tool's own JSON report of the same files (`check
--output-format json` before the fix, after it), never written into the test.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN, ROOT
from spmdfix.cli import main

# A file whose findings `auto` fixes, and one whose findings it refuses (left for a human).
FIXED = ROOT / "examples" / "model.py"
REFUSED = GOLDEN / "refuse" / "add_axis_mesh_parameter" / "input.py"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    shutil.copy(FIXED, tmp_path / "pkg" / "model.py")
    shutil.copy(REFUSED, tmp_path / "pkg" / "refused.py")
    (tmp_path / "pkg" / "clean.py").write_text("import jax\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _records(*paths: str) -> list[dict]:
    result = run("check", "--output-format", "json", "--exit-zero", *paths)
    return json.loads(result.stdout)


def _where(record: dict, root: Path) -> str:
    name = Path(record["filename"]).resolve().relative_to(root.resolve()).as_posix()
    return f"{name}:{record['location']['row']}:{record['location']['column']}"


def test_the_markdown_report_lists_every_finding_its_fix_choice_the_diff_and_what_is_left(work: Path) -> None:
    before = _records("pkg")
    assert {Path(r["filename"]).name for r in before} == {"model.py", "refused.py"}
    result = run("fix", "--report", "out/report.md", "pkg")
    assert result.exit_code == 1  # findings are left (the refused file's)
    text = (work / "out" / "report.md").read_text(encoding="utf-8")
    after = _records("pkg")
    assert after and all(Path(r["filename"]).name == "refused.py" for r in after)

    for record in before:
        assert f"### {record['code']} at `{_where(record, work)}`" in text
        assert record["message"] in text
    # Every fix JSON offers for a finding appears with its safety class and reason: the chosen one as chosen.
    for record in before:
        for fix in record.get("fixes", []):
            assert f"{fix['transform']} [{fix['applicability']}]" in text
    assert "- **fix chosen**: add-axis [safe]" in text
    assert "- **no fix chosen**" in text  # the refused file's findings
    assert "not offered: " in text
    # The diff of the fixed file, as `fix --diff` prints it.
    assert "```diff\n--- a/pkg/model.py\n+++ b/pkg/model.py\n" in text
    assert "refused.py\n+++" not in text
    # What is left: each finding of the check after the fix, with why no fix took it.
    left = text.split("Left for a human:", 1)[1]
    for record in after:
        assert f"`{_where(record, work)}` {record['code']}" in left
    assert "no fix:" in left or "no safe fix:" in left
    # Totals, computed from the JSON reports.
    assert "- files checked: 3" in text
    assert "- files with findings: 2" in text
    assert f"- findings found: {len(before)}" in text
    assert f"- findings left: {len(after)}" in text
    assert "- files changed: 1" in text
    assert "clean.py" not in text  # nothing to say of a clean file


def test_a_preview_report_writes_no_source_and_says_so(work: Path) -> None:
    model = (work / "pkg" / "model.py").read_bytes()
    result = run("fix", "--diff", "--report", "r.md", "pkg")
    assert result.exit_code == 1
    assert (work / "pkg" / "model.py").read_bytes() == model
    text = (work / "r.md").read_text(encoding="utf-8")
    assert "a preview (`--diff`): nothing was written" in text
    assert "- fixes to apply (preview): " in text and "to apply (preview)" in text


@pytest.mark.parametrize("args", [["-", "--report", "r.md"], ["--interactive", "pkg", "--report", "r.md"]])
def test_report_refuses_stdin_and_interactive(work: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, ["fix", *args], input="")
    assert result.exit_code == 2 and "--report cannot be combined" in result.output
    assert not (work / "r.md").exists()


def test_report_refuses_an_unknown_suffix(work: Path) -> None:
    result = CliRunner().invoke(main, ["fix", "--report", "r.txt", "pkg"])
    assert result.exit_code == 2 and "--report writes .html or .md" in result.output


class _Resources(html.parser.HTMLParser):
    """Every tag and every attribute of an HTML page that could load something."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.links += [(k, v or "") for k, v in attrs if k in ("src", "href", "srcset", "action", "data")]


def test_the_html_page_loads_nothing_and_escapes_the_source(work: Path) -> None:
    (work / "pkg" / "model.py").write_text(
        (work / "pkg" / "model.py").read_text(encoding="utf-8") + "\n# <script>alert(1)</script>\n", encoding="utf-8"
    )
    run("fix", "--diff", "--report", "r.html", "pkg")
    page = (work / "r.html").read_text(encoding="utf-8")
    parsed = _Resources()
    parsed.feed(page)
    assert "script" not in parsed.tags and "link" not in parsed.tags and "img" not in parsed.tags
    assert all(k == "href" and v.startswith("#") for k, v in parsed.links), parsed.links
    assert "default-src 'none'" in page


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    return None


def _show(browser: str, page: Path, work: Path) -> tuple[str, set[str]]:
    """The DOM headless Chromium renders for `page`, and the URLs the page itself asked for: Chromium's network
    log (`--log-net-log`) holds the browser's own traffic too (component updates, the clock), told apart by
    its network isolation key, which names the page's site (`file://`) only for requests made for the page."""
    netlog = work / f"{page.stem}.netlog.json"
    shown = subprocess.run(
        [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={work / (page.stem + '.profile')}", f"--log-net-log={netlog}", "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(work)},
    )
    assert shown.returncode == 0, shown.stderr[-2000:]
    log = json.loads(netlog.read_text(encoding="utf-8"))
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    asked = {
        event["params"]["url"]
        for event in log["events"]
        if event["type"] == start_job and "file://" in str(event["params"].get("network_isolation_key", ""))
    }
    return shown.stdout, asked


@pytest.mark.e2e
def test_a_browser_shows_every_file_finding_and_total_and_makes_no_network_request(work: Path) -> None:
    """Headless Chromium opens the HTML report from disk: the rendered page lists every file, every finding
    and every total, and the page asks for nothing over the network (a page with one remote image, shown the
    same way, is seen asking for it: the check can fail)."""
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium on this machine (.ci/run installs Debian's chromium package)")
    before = _records("pkg")
    run("fix", "--report", "report.html", "pkg")
    after = _records("pkg")
    dom, asked = _show(browser, work / "report.html", work)
    text = html.unescape(dom)
    for name in ("pkg/model.py", "pkg/refused.py"):
        assert f"<code>{name}</code>" in dom
    for record in before:
        assert f"{record['code']} at <code>{_where(record, work)}</code>" in text
    for record in after:
        assert _where(record, work) in text.split("Left for a human", 1)[1]
    for label, value in (("findings found", len(before)), ("findings left", len(after)), ("files checked", 3)):
        assert f"<th>{label}</th><td>{value}</td>" in dom
    assert asked == set()

    control = work / "control.html"
    control.write_text('<!DOCTYPE html><p>x</p><img src="http://127.0.0.1:9/remote.png">', encoding="utf-8")
    assert _show(browser, control, work)[1] == {"http://127.0.0.1:9/remote.png"}


def test_a_finding_in_another_module_is_placed_where_it_was_before_the_fix_moved_its_lines(tmp_path: Path,
                                                                                            monkeypatch) -> None:
    """newuser9: a finding of train.py's vmap lies in model.py, and a fix edits model.py above it (add-axis
    lengthens the mesh's line): the report placed it by model.py's text read after the fix was written
    (`pkg/model.py:24:47` for `24:60`; in the trial, `model.py:78:1` for `78:46` after a line was removed).
    Every place the report shows is one `check` gave before the fix."""
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text(
        "import jax\n"
        "import numpy as np\n"
        "from jax.sharding import Mesh, PartitionSpec as P\n"
        "\n"
        "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n"
        "\n"
        "\n"
        "def body(x):\n"
        "    return jax.lax.psum(x, 'model')\n"
        "\n"
        "\n"
        "def layer(x):\n"
        "    return jax.shard_map(body, mesh=MESH, in_specs=P('data', 'model'), out_specs=P('data'))(x)\n"
        "\n"
        "\n"
        "def own(xs):\n"
        "    return jax.vmap(\n"
        "        layer,\n"
        "        spmd_axis_name='data',\n"
        "    )(xs)\n"
        "\n"
        "\n"
        "def ensemble(x):\n"
        "    return jax.shard_map(body, mesh=MESH, in_specs=P(None, 'model'), out_specs=P())(x)\n"
    )
    (pkg / "train.py").write_text(
        "import jax\n"
        "from pkg.model import ensemble\n"
        "\n"
        "\n"
        "def run(xs):\n"
        "    return jax.vmap(ensemble, spmd_axis_name='model')(xs)\n"
    )
    monkeypatch.chdir(tmp_path)
    before = _records("pkg")
    wheres = {_where(r, tmp_path) for r in before}
    assert "pkg/model.py:24:60" in wheres  # the 'model' entry of ensemble's in_specs, found from train.py
    result = run("fix", "--report", "r.md", "pkg")
    assert result.exit_code == 0, result.output
    assert "('batch', 'data', 'model')" in (pkg / "model.py").read_text()  # add-axis lengthened line 5
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^### SPMD\d+ at `([^`]+)`", text, re.MULTILINE))
    assert shown == wheres


@pytest.mark.parametrize("diff", [True, False])
def test_a_finding_in_a_module_the_check_did_not_parse_is_placed_at_its_row(
    tmp_path: Path, monkeypatch, diff: bool
) -> None:
    """newuser10: model.py holds the spec but no vmap, so the check of the whole tree does not parse it and its
    result keeps no text (`Checked.text == ""`); the report placed the collision of train.py's vmap by that
    empty text, at `src/ddp/model.py:1:176` where `check` says `src/ddp/model.py:7:65`."""
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "src" / "ddp"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(
        "import jax\nfrom jax.sharding import AxisType\n\nDATA = 'data'\n"
        "MESH = jax.make_mesh((2, 4), (DATA, 'model'), axis_types=(AxisType.Auto,) * 2)\n"
    )
    (pkg / "model.py").write_text(
        "import jax\nfrom jax.sharding import PartitionSpec as P\nfrom ddp.config import DATA, MESH\n\n\n"
        "def rows(x):\n    return jax.shard_map(lambda b: b * 2, mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))(x)\n"
    )
    (pkg / "train.py").write_text(
        "import jax\nfrom ddp import config\nfrom ddp.model import rows\n\n\n"
        "def step(xs):\n    return jax.vmap(rows, spmd_axis_name=config.DATA)(xs)\n"
    )
    monkeypatch.chdir(tmp_path)
    wheres = {_where(r, tmp_path) for r in _records(".")}
    assert wheres == {"src/ddp/model.py:7:65", "src/ddp/model.py:7:84"}
    result = run("fix", *(["--diff"] if diff else []), "--no-cache", "--report", "r.md", ".")
    assert result.exit_code == (1 if diff else 0), result.output
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert set(re.findall(r"^### SPMD\d+ at `([^`]+)`", text, re.MULTILINE)) == wheres


def test_the_report_of_a_tree_the_cache_holds_as_plain_files(work: Path, monkeypatch) -> None:
    """newuser10: after a `check` had filled the results cache, `fix --report` over the tree raised
    `ValueError: the check and the fix run did not cover the same files` (a traceback, exit 1): the report's
    check let the cache serve clean.py as plain, counted without a result, while the fix run had one."""
    import spmdfix.stamps as stamps_module

    monkeypatch.setenv("SPMDFIX_CACHE_DIR", str(work / ".cache"))
    monkeypatch.setattr(stamps_module, "RACY_NS", -10**12)  # this second's stats settled: served as plain
    for _ in range(2):
        run("check", "--exit-zero", "pkg")
    result = run("fix", "--diff", "--report", "r.md", "pkg")
    assert result.exit_code == 1, result.output
    text = (work / "r.md").read_text(encoding="utf-8")
    assert "- files checked: 3" in text
