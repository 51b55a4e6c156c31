"""The project's documentation says true things about this repository, and only cites what it contains."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from golden import ROOT
from spmdfix.lsp import DEFAULT_DEBOUNCE_MS
from spmdfix.rules import RULES

DOCS = [
    ROOT / "README.md",
    ROOT / "golden" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "spmdfix" / "rules" / "docs").glob("*.md")),
]


def test_docs_cite_nothing_outside_the_repository() -> None:
    """README, docs/ and the rule docs carry the facts users need (docs/jax-behaviour.md), not pointers to
    notes and experiments that are not part of the repository."""
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for outside in ("../shared", "jax-semantics", "jax-experiments"):
            assert outside not in text, f"{path.relative_to(ROOT)} cites {outside}"
    assert (ROOT / "docs" / "jax-behaviour.md").is_file()


def test_editors_md_gives_the_servers_debounce_default_everywhere() -> None:
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    assert f"| `debounce_ms` | `{DEFAULT_DEBOUNCE_MS}` |" in text
    assert f"(default {DEFAULT_DEBOUNCE_MS} ms;" in text
    values = re.findall(r"debounce_ms\W+(\d+)", text)
    assert values and set(values) == {str(DEFAULT_DEBOUNCE_MS)}, values


def test_editors_md_names_every_rule_and_the_checkout_install() -> None:
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    assert sorted(c for c in RULES if c < "SPMD9") == [f"SPMD00{i}" for i in range(1, 9)]
    assert "SPMD001-SPMD008" in text and "SPMD900" in text and "SPMD901" in text
    assert "pip install -e '.[lsp]'" in text


def test_the_pre_commit_snippet_works_without_a_release_tag() -> None:
    """No tag of spmdfix exists: the README's snippet is a `repo: local` hook running the installed spmdfix."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("# .pre-commit-config.yaml\n", 1)[1].split("```", 1)[0]
    config = yaml.safe_load(snippet)
    (repo,) = config["repos"]
    assert repo["repo"] == "local" and "rev" not in repo
    assert [h["entry"].split()[:2] for h in repo["hooks"]] == [["spmdfix", "fix"], ["spmdfix", "check"]]
    shipped = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {h["id"] for h in repo["hooks"]} == shipped


def test_examples_say_how_to_run_them_and_no_line_says_it_raises() -> None:
    for example in ("minimal.py", "model.py"):
        text = (ROOT / "examples" / example).read_text(encoding="utf-8")
        assert "# raises" not in text  # `spmdfix fix` keeps comments: the fixed file would still say so
        assert "XLA_FLAGS=--xla_force_host_platform_device_count=8" in text
    assert "XLA_FLAGS=--xla_force_host_platform_device_count=8 python examples/minimal.py" in (
        ROOT / "README.md"
    ).read_text(encoding="utf-8")


def test_readme_attributes_the_benchmarks_debounce_to_the_benchmark() -> None:
    """README's editor timing ran with the benchmark's `--debounce` (50), not docs/editors.md's default (30)."""
    bench = (ROOT / "bench" / "editor_latency.py").read_text(encoding="utf-8")
    (bench_default,) = re.findall(r'"--debounce", type=int, default=(\d+)', bench)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = (
        f"with the server's `debounce_ms = {bench_default}` (the benchmark's `--debounce` default; docs/editors.md's"
        f" is the server's default, {DEFAULT_DEBOUNCE_MS})"
    )
    assert said in readme
    assert readme.count(f"debounce_ms = {bench_default}") == 1


def test_editors_md_installs_from_the_repository_first() -> None:
    """Nothing is published on a package index: the first install command is a checkout's."""
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    installs = re.findall(r"^pip install .*$", text, flags=re.M)
    assert installs[0].startswith("pip install -e '.[lsp]'"), installs
    assert "from a package index" not in text and "pip install 'spmdfix[lsp]'" not in text


def _toml_blocks(text: str) -> list[str]:
    return re.findall(r"```toml\n(.*?)```", text, flags=re.S)


def test_readmes_settings_examples_load_as_settings(tmp_path) -> None:
    """README's `[tool.spmdfix]` blocks use only keys and values spmdfix accepts (new keys included), and say
    what they do: the example's `unfixable` leaves SPMD003 reported without fixes, its `docs-url` builds links."""
    from spmdfix.config import load_settings
    from spmdfix.links import rule_url

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in _toml_blocks(readme) if b.startswith("[tool.spmdfix]")]
    assert len(blocks) >= 2
    loaded = []
    for i, block in enumerate(blocks):
        (tmp_path / str(i)).mkdir()
        (tmp_path / str(i) / "pyproject.toml").write_text(block)
        loaded.append(load_settings(tmp_path / str(i) / "pyproject.toml"))
    full = loaded[0]
    assert "SPMD003" in full.selected_codes() and "SPMD003" not in full.fixable_codes()
    assert "SPMD910" not in full.selected_codes()  # ignore = ["SPMD9"]
    docs = next(s for s in loaded if s.docs_url)
    assert rule_url("SPMD001", docs.docs_url) == "https://github.com/<owner>/spmdfix/blob/main/spmdfix/rules/docs/SPMD001.md"


def test_readmes_baseline_commands_do_what_it_says(tmp_path, monkeypatch) -> None:
    """The two commands of README's baseline section: the first writes the file and reports nothing, the
    second reports only findings not in it."""
    import shlex
    import shutil

    from click.testing import CliRunner

    from spmdfix.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adopting spmdfix on a large codebase\n", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#")[0].strip() for line in section.split("```\n", 2)[1].splitlines()]
    assert commands == ["spmdfix check --baseline .spmdfix-baseline.json"] * 2
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "minimal.py", tmp_path / "minimal.py")
    args = shlex.split(commands[0])[1:]
    first = CliRunner().invoke(main, args)
    assert (first.exit_code, first.stdout) == (0, "All checks passed!\n")
    assert (tmp_path / ".spmdfix-baseline.json").is_file()
    shutil.copy(ROOT / "examples" / "model.py", tmp_path / "model.py")
    second = CliRunner().invoke(main, [*shlex.split(commands[1])[1:], "--output-format", "concise"])
    assert second.exit_code == 1
    assert {line.split(":")[0] for line in second.stdout.splitlines()[:-1]} == {"model.py"}


def _walkthrough() -> list[str]:
    """The commands of docs/fixes.md's "What to do after a finding", in order."""
    text = (ROOT / "docs" / "fixes.md").read_text(encoding="utf-8")
    section = text.split("## What to do after a finding\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()


def test_fixes_md_walkthrough_commands_do_what_it_says(tmp_path, monkeypatch) -> None:
    """Each spmdfix command of the walk-through, run on a copy of examples/minimal.py: check finds SPMD001 and
    SPMD002; --show-fixes gives each fix's class and the batch's placement; the diffs write nothing and show
    add-axis (auto) and strip; --report writes the report and the strip; the last line runs the example as
    README says."""
    import shlex
    import shutil

    from click.testing import CliRunner

    from spmdfix.cli import main

    commands = _walkthrough()
    assert [c.split()[:2] for c in commands[:-1]] == [["spmdfix", "check"]] * 2 + [["spmdfix", "fix"]] * 3
    assert commands[-1] == "XLA_FLAGS=--xla_force_host_platform_device_count=8 python examples/minimal.py"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "minimal.py", tmp_path / "examples" / "minimal.py")
    original = (tmp_path / "examples" / "minimal.py").read_text(encoding="utf-8")
    out = [CliRunner().invoke(main, shlex.split(c)[1:]) for c in commands[:-1]]
    check, show, diff, strip_diff, report = out
    assert check.exit_code == 1 and "SPMD001" in check.stdout and "SPMD002" in check.stdout
    assert "fix [safe] add-axis (auto)" in show.stdout and "fix [safe] strip:" in show.stdout
    assert "batch placement unchanged: split 8 ways over `'i'` (1 example per device)" in show.stdout
    assert "every device holds the whole batch (8 examples per device)" in show.stdout
    assert diff.exit_code == 1 and "spmd_axis_name='batch'" in diff.stdout
    assert strip_diff.exit_code == 1 and "in_specs=P(None), out_specs=P(None)" in strip_diff.stdout
    assert report.exit_code == 0
    assert "### SPMD001" in (tmp_path / "migration.md").read_text(encoding="utf-8")
    fixed = (tmp_path / "examples" / "minimal.py").read_text(encoding="utf-8")
    assert fixed != original and "in_specs=P(None), out_specs=P(None)" in fixed


@pytest.mark.runtime
def test_fixes_md_walkthrough_runs_the_model(tmp_path) -> None:
    """The walk-through's last step: the stripped example runs and matches its reference."""
    import os
    import subprocess
    import sys

    from spmdfix.api import Options, fix_source
    from spmdfix.model import Transform

    line = _walkthrough()[-1]
    env_text, _, command = line.partition(" ")
    (tmp_path / "examples").mkdir()
    source = (ROOT / "examples" / "minimal.py").read_text(encoding="utf-8")
    (tmp_path / "examples" / "minimal.py").write_text(fix_source(source, Options(strategy=Transform.STRIP)).source)
    key, value = env_text.split("=", 1)
    env = {**os.environ, key: value}
    # the line names `python`: run as this interpreter, whose jax the tests use
    args = [sys.executable if a == "python" else a for a in command.split()]
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "values match: True" in done.stdout


@pytest.mark.e2e  # (a process: the console entry point, as README runs it)
def test_readme_first_command_in_this_checkout_prints_the_add_axis_diffs(tmp_path) -> None:
    """README's first command, `spmdfix fix --diff examples/`, run where README says (this checkout, not a copy):
    the examples are a project of their own (examples/pyproject.toml), so the importlib users among the
    repository's tests and benchmarks are not their importers, and the safe fix shown is add-axis in both
    modules. Nothing is written (--diff), and the status is 1: changes pending."""
    import subprocess
    import sys

    command = re.search(r"```\npip install -e \. && (spmdfix fix --diff examples/)\n```", (ROOT / "README.md").read_text())
    assert command is not None
    before = {p: p.read_bytes() for p in (ROOT / "examples").iterdir()}
    # (as the other process tests run the CLI: `python -m spmdfix.cli`, its cache kept out of the checkout)
    env = {**os.environ, "SPMDFIX_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "spmdfix.cli", *command.group(1).split()[1:]],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.count("+++ b/examples/") == 2, done.stdout
    assert "fixes to apply: add-axis 2; 0 findings left" in done.stderr
    assert {p: p.read_bytes() for p in (ROOT / "examples").iterdir()} == before
