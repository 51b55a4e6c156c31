"""The one fix loop (`fix_engine.fix_texts`) behind both front doors: `api.fix_source` (one module) and
`api.fix_modules` (modules of a project) give the same results where both apply, a reviewer sees a fix's
edits in every module it edits, and a pass whose result would not parse in any module leaves nothing applied."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from golden import GOLDEN, TRANSFORM_GROUPS, cases

from spmdfix import fix_engine
from spmdfix.api import fix_modules, fix_source, new_project_index
from spmdfix.files import text_of
from spmdfix.model import Applicability, Options, Transform
from spmdfix.positions import apply_edits

TREE = GOLDEN / "strip" / "tree_relative_import"  # pkg/pipeline.py's vmap reaches a shard_map of pkg/layers.py
STRIP = Options(strategy=Transform.STRIP, unsafe_fixes=True)

# Two shard_maps with an inner vmap each on an Explicit mesh: pass 1 sets check_vma=False on both (unsafe),
# pass 2 lifts the captures (offered as safe, applied as unsafe: the chain). Two passes that apply fixes.
CHAIN = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = jax.make_mesh((2, 4), ('x', 'y'))

def f(w, x):
    return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
def g(w, x):
    return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)
jax.vmap(f, spmd_axis_name='x')
jax.vmap(g, spmd_axis_name='x')
"""


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of the tree case's input: (root, pkg/pipeline.py, pkg/layers.py), resolved."""
    root = tmp_path / "project"
    shutil.copytree(TREE / "input", root)
    root = root.resolve()
    return root, root / "pkg" / "pipeline.py", root / "pkg" / "layers.py"


def _index_for(root: Path):
    return lambda texts: new_project_index(root, overlay=texts)


def test_a_reviewer_sees_the_edits_a_fix_makes_in_another_module(tmp_path: Path) -> None:
    """The strip planned from pipeline.py's vmap edits layers.py: offered with edits whose span names
    layers.py, at offsets into its text; accepted, they give the expected tree; refused, nothing changes."""
    root, pipeline, layers = _tree(tmp_path)
    offered: list = []

    def review(text: str, these: fix_engine.Offered) -> list:
        assert text == pipeline.read_text()
        offered.extend(these)
        return [fix.id for fix, _ in these]

    run = fix_engine.fix_texts({}, [str(pipeline)], STRIP, review=review, index_for=_index_for(root), read=text_of)
    assert len(offered) == 1
    fix, edits = offered[0]
    assert fix.transform is Transform.STRIP and {e.span.path for e in edits} == {str(layers)}
    expected = (TREE / "expected" / "pkg" / "layers.py").read_text()
    assert apply_edits(layers.read_text(), edits) == expected
    assert run.changed() == {str(layers): expected}
    assert apply_edits(layers.read_text(), run.edits(str(layers))) == expected
    assert run.applied == (fix,) and not run.errors

    refused = fix_modules([pipeline], STRIP, root, review=lambda text, these: [])
    assert refused.texts == {} and refused.applied == ()
    assert refused.remaining[str(pipeline)] == run.targets[str(pipeline)].found


def test_fix_source_leaves_a_fix_that_edits_another_module(tmp_path: Path) -> None:
    """Without a reader of other modules (fix_source), the cross-module strip is not chosen, and the finding
    gets no other fix in its place: nothing is applied, the findings stay."""
    root, pipeline, _ = _tree(tmp_path)
    text = pipeline.read_text()
    result = fix_source(text, STRIP, path=pipeline, index=new_project_index(root))
    assert result.source == text and result.applied == () and not result.errors
    assert result.remaining and result.remaining == result.found


def test_a_module_that_would_not_parse_leaves_every_module_as_it_was(tmp_path: Path, monkeypatch) -> None:
    """A fix whose result for another module does not parse: nothing of it is applied, and the error names
    that module (the target's name is the caller's prefix)."""
    root, pipeline, layers = _tree(tmp_path)
    real = fix_engine.apply_edits

    def broken(source: str, edits) -> str:
        new = real(source, edits)
        return new + "def (:\n" if source == layers.read_text() else new

    monkeypatch.setattr(fix_engine, "apply_edits", broken)
    result = fix_modules([pipeline], STRIP, root)
    assert result.texts == {} and result.applied == ()
    assert len(result.errors) == 1
    assert result.errors[0].startswith(f"internal error: the fixed module {layers} would not parse (")
    assert result.errors[0].endswith("; nothing written")
    assert result.remaining[str(pipeline)]


def test_a_pass_that_would_not_parse_undoes_the_passes_before_it(monkeypatch) -> None:
    """The second pass's text does not parse: the first pass's fixes are not applied either (nothing of the
    module is written), and what is left is what was found."""
    real = fix_engine.apply_edits
    calls: list[int] = []

    def second_breaks(source: str, edits) -> str:
        calls.append(1)
        new = real(source, edits)
        return new + "def (:\n" if len(calls) == 2 else new

    monkeypatch.setattr(fix_engine, "apply_edits", second_breaks)
    result = fix_source(CHAIN, Options(unsafe_fixes=True))
    assert len(calls) == 2
    assert result.source == CHAIN and result.applied == () and result.edits == ()
    assert result.errors == (result.errors[0],) and "the fixed module would not parse" in result.errors[0]
    assert result.remaining == result.found and result.found


def test_the_chain_rule_holds_in_fix_modules_too(tmp_path: Path) -> None:
    """A safe fix applied after an unsafe fix of its shard_map is applied as unsafe, whichever door runs the
    loop; both give the same text and the same fixes."""
    module = tmp_path / "m.py"
    module.write_text(CHAIN)
    alone = fix_source(CHAIN, Options(unsafe_fixes=True))
    across = fix_modules([module], Options(unsafe_fixes=True), tmp_path)
    assert across.texts == {str(module.resolve()): alone.source}
    assert across.applied == alone.applied
    assert [f.transform for f in across.applied] == [Transform.DISABLE_CHECK_VMA] * 2 + [Transform.LIFT_CAPTURES] * 2
    assert all(f.applicability is Applicability.UNSAFE for f in across.applied)


ONE_MODULE = [c for c in cases() if c.group in TRANSFORM_GROUPS]


@pytest.mark.parametrize("case", ONE_MODULE[::4], ids=[c.test_id for c in ONE_MODULE[::4]])
def test_both_doors_fix_a_one_module_case_alike(case, tmp_path: Path) -> None:
    """A one-module golden case fixed through fix_modules (a project of that one module) gives fix_source's
    text, fixes and findings left."""
    module = tmp_path / "input.py"
    shutil.copy(case.input, module)
    text = module.read_text()
    alone = fix_source(text, case.options)
    across = fix_modules([module], case.options, tmp_path)
    assert across.texts.get(str(module.resolve()), text) == alone.source
    assert across.applied == alone.applied
    assert across.remaining[str(module.resolve())] == alone.remaining


def test_fix_texts_of_a_module_with_no_path() -> None:
    """The simplest case: one module named "", no index, no reader."""
    run = fix_engine.fix_texts({"": CHAIN}, [""], Options(unsafe_fixes=True))
    assert run.texts[""] == fix_source(CHAIN, Options(unsafe_fixes=True)).source != CHAIN
    assert apply_edits(CHAIN, run.edits("")) == run.texts[""]
