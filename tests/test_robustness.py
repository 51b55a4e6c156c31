"""Robustness of the source-in API (`check_source`, `fix_source`) on generated and hostile inputs.

Three parts:

- random Python programs (hypothesmith, from the grammar and from libcst's node types), behind a header
  that lets them through the textual prefilter: `check_source` never raises; `fix_source` never makes
  parseable code unparseable and is idempotent;
- JAX programs built from templates (import spellings and aliases, `spmd_axis_name` forms, spec forms,
  helper chains, decorators, mesh constructions; random axis names, quotes, spacing and comments) that have
  a collision or, by construction, none: `check_source` finds one exactly when there is one, and every
  fix strategy (with unsafe fixes on) gives output that parses, is a fixed point and, when a fix applied,
  lints clean;
- hand-made hostile inputs: CRLF, non-ASCII identifiers, tab indentation, deep nesting, empty source,
  a null byte, a huge line.

Hypothesis runs are bounded (`max_examples`, no deadline) so the file stays well under a minute.
"""

from __future__ import annotations

import ast
import sys
import keyword
import re
from dataclasses import dataclass

import hypothesis.strategies as st
import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, example, given, settings

from golden import GOLDEN
from spmdfix.api import Options, check_source, fix_source
from spmdfix.model import AUTO, Strategy, Transform

hypothesmith = pytest.importorskip("hypothesmith")

# Random programs compile with warnings ("'int' object is not callable; perhaps you missed a comma?").
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

FIX_STRATEGIES = (AUTO, Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP)
COLLISION_CODES = {"SPMD001", "SPMD002"}
# Lets a generated program through the prefilter (it needs `shard_map` and a vmap call passing an
# spmd_axis_name in the text), so the parser and the analysis really run on it.
HEADER = (
    "import jax\nfrom jax import vmap, shard_map\nfrom jax.sharding import PartitionSpec as P\n"
    "vmap(len, spmd_axis_name='i')\n"
)


def examples(full: int) -> int:
    """A test's example count: `full` in the full lane; under the fast lane's hypothesis profile ("fast",
    tests/conftest.py) no more than that profile's `max_examples`."""
    if settings.get_current_profile_name() == "fast":
        return min(full, settings.default.max_examples)
    return full


SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    database=None,  # no .hypothesis/ folder in the work tree; failures print their reproducing example
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
        cst.parse_module(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError, cst.ParserSyntaxError):
        return False
    return True


def _assert_fix_is_sound(source: str, options: Options | None = None) -> None:
    """fix_source: total; unparseable in -> same text out; parseable in -> parseable out; idempotent."""
    options = options or Options()
    result = fix_source(source, options)
    if not _parses(source):
        assert result.source == source
        return
    assert _parses(result.source), result.errors
    again = fix_source(result.source, options)
    assert again.source == result.source, "a second run changed the fixed text"


# --- random programs ------------------------------------------------------------------------------------


@SETTINGS
@given(hypothesmith.from_grammar())
def test_random_grammar_programs(body: str) -> None:
    for source in (body, HEADER + body):
        check_source(source)
        _assert_fix_is_sound(source)


@settings(SETTINGS, max_examples=examples(20))  # from_node generates slowly: about 0.6 s an example
@given(hypothesmith.from_node())
def test_random_cst_programs(body: str) -> None:
    source = HEADER + body
    check_source(source)
    _assert_fix_is_sound(source, Options(unsafe_fixes=True))


# --- JAX programs from templates ------------------------------------------------------------------------

_RESERVED = {"jax", "np", "P", "mesh", "body", "layer", "helper", "partial", "vm", "sm", "jx", "batch", "main"}
axis_names = st.from_regex(r"[a-zé][a-z0-9_é]{0,5}", fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s) and s not in _RESERVED
)


@dataclass(frozen=True)
class Program:
    source: str
    collision_in: bool
    collision_out: bool

    @property
    def collision(self) -> bool:
        return self.collision_in or self.collision_out


@st.composite
def jax_programs(draw: st.DrawFn) -> Program:
    """A module with one spmd vmap reaching one shard_map; a collision or, by construction, none."""
    n_axes = draw(st.sampled_from([2, 3]))
    names = draw(st.lists(axis_names, min_size=n_axes, max_size=n_axes, unique=True))
    q = draw(st.sampled_from(["'", '"']))
    sp = draw(st.sampled_from(["", " "]))  # space after commas in the varying places
    comment = draw(st.sampled_from(["", "  # note: vmap over the batch", "  # 'x' is not an axis here"]))

    def lit(name: str) -> str:
        return f"{q}{name}{q}"

    spmd = names[0]
    collision = draw(st.booleans())
    where = draw(st.sampled_from(["in", "out", "both"])) if collision else "none"
    data = names[1:]

    def spec_entries(collides: bool) -> str:
        form = draw(st.sampled_from(["plain", "tuple_entry", "with_none"]))
        if not collides:
            return f",{sp}".join(lit(a) for a in data) if form != "with_none" else f"None,{sp}{lit(data[0])}"
        if form == "tuple_entry":
            return f"({lit(spmd)},{sp}{lit(data[0])})"
        if form == "with_none":
            return f"{lit(spmd)},{sp}None"
        return lit(spmd)

    imports = ["import jax", "import numpy as np"]
    # PartitionSpec spelling.
    p_form = draw(st.sampled_from(["P", "PartitionSpec", "jax.P", "jax.sharding.PartitionSpec"]))
    if p_form == "P":
        imports.append("from jax.sharding import PartitionSpec as P")
    elif p_form == "PartitionSpec":
        imports.append("from jax.sharding import PartitionSpec")

    def mk_spec(entries: str) -> str:
        return f"{p_form}({entries})"

    # vmap spelling.
    v_form = draw(st.sampled_from(["jax.vmap", "vmap", "vm", "jx.vmap"]))
    if v_form == "vmap":
        imports.append("from jax import vmap")
    elif v_form == "vm":
        imports.append("from jax import vmap as vm")
    elif v_form == "jx.vmap":
        imports.append("import jax as jx")

    # shard_map spelling.
    s_form = draw(st.sampled_from(["jax.shard_map", "shard_map", "sm", "experimental"]))
    if s_form == "shard_map":
        imports.append("from jax import shard_map")
    elif s_form == "sm":
        imports.append("from jax import shard_map as sm")
    elif s_form == "experimental":
        imports.append("from jax.experimental.shard_map import shard_map")
    s_name = {"experimental": "shard_map"}.get(s_form, s_form)

    # The mesh.
    shape = {2: draw(st.sampled_from(["2, 4", "4, 2", "2, 2"])), 3: "2, 2, 2"}[n_axes]
    names_tuple = "(" + f",{sp}".join(lit(a) for a in names) + ")"
    m_form = draw(st.sampled_from(["Mesh", "make_mesh", "make_mesh_auto"]))
    if m_form == "Mesh":
        imports.append("from jax.sharding import Mesh")
        mesh = f"mesh = Mesh(np.array(jax.devices()).reshape({shape}),{sp}{names_tuple})"
    elif m_form == "make_mesh":
        mesh = f"mesh = jax.make_mesh(({shape}),{sp}{names_tuple})"
    else:
        imports.append("from jax.sharding import AxisType")
        mesh = f"mesh = jax.make_mesh(({shape}), {names_tuple}, axis_types=(AxisType.Auto,) * {n_axes})"

    in_spec = mk_spec(spec_entries(where in ("in", "both")))
    out_spec = mk_spec(spec_entries(where in ("out", "both")))
    module_lines = [mesh]
    if draw(st.booleans()):
        module_lines.append(f"IN_SPEC = {in_spec}")
        in_spec = "IN_SPEC"
    if draw(st.booleans()):
        in_spec = f"({in_spec},)"

    # The shard_map: called inline, or a decorated body.
    sm_form = draw(
        st.sampled_from(["call", "partial_decorator"] + (["factory_decorator"] if s_form == "jax.shard_map" else []))
    )
    kwargs = f"mesh=mesh,{sp}in_specs={in_spec},{sp}out_specs={out_spec}"
    funcs = []
    if sm_form == "call":
        funcs.append("def body(v):\n    return v * 2.0 + 1.0" + comment)
        sharded = f"{s_name}(body,{sp}{kwargs})(x)"
    else:
        if sm_form == "partial_decorator":
            imports.append("from functools import partial")
            deco = f"@partial({s_name}, {kwargs})"
        else:
            deco = f"@jax.shard_map({kwargs})"
        funcs.append(f"{deco}\ndef body(v):\n    return v * 2.0 + 1.0")
        sharded = "body(x)"

    # The chain from the vmapped function to the shard_map.
    chain = draw(st.sampled_from(["direct", "helper", "jit"]))
    if chain == "helper":
        funcs.append(f"def helper(x):\n    return {sharded}")
        funcs.append("def layer(x):\n    return helper(x) * 1.0")
    else:
        funcs.append(f"def layer(x):{comment}\n    return {sharded}")
    target = "jax.jit(layer)" if chain == "jit" else "layer"
    if chain == "direct" and draw(st.booleans()):
        target = "lambda x: layer(x)"

    # The spmd vmap.
    a_form = draw(st.sampled_from(["string", "tuple", "constant", "positional", "decorator"]))
    v_callable = "vmap" if v_form == "vm" and a_form == "decorator" else v_form
    if a_form == "string":
        call = f"{v_form}({target},{sp}spmd_axis_name={lit(spmd)})(xs)"
    elif a_form == "tuple":
        call = f"{v_form}({target}, spmd_axis_name=({lit(spmd)},))(xs)"
    elif a_form == "constant":
        module_lines.append(f"SPMD_AXIS = {lit(spmd)}")
        call = f"{v_form}({target}, spmd_axis_name=SPMD_AXIS)(xs)"
    elif a_form == "positional":
        call = f"{v_form}({target}, 0, 0, None, None, {lit(spmd)})(xs)"
    else:
        if "from functools import partial" not in imports:
            imports.append("from functools import partial")
        v_callable = v_form
        funcs.append(f"@partial({v_callable}, spmd_axis_name={lit(spmd)})\ndef batched(x):\n    return layer(x)")
        call = "batched(xs)"
    funcs.append(f"def main(xs):\n    return {call}")

    blank = draw(st.sampled_from(["\n\n", "\n\n\n"]))
    source = "\n".join(imports) + "\n\n" + "\n".join(module_lines) + blank + blank.join(funcs) + "\n"
    return Program(source, where in ("in", "both"), where in ("out", "both"))


@settings(SETTINGS, max_examples=examples(150))
@given(jax_programs())
@example(
    Program(
        "import jax\nfrom jax.sharding import Mesh, PartitionSpec as P\nimport numpy as np\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n\n\n"
        "def body(v):\n    return v * 2.0 + 1.0\n\n\n"
        "def layer(x):\n    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)\n\n\n"
        "def main(xs):\n    return jax.vmap(layer, spmd_axis_name='x')(xs)\n",
        True,
        True,
    )
)
def test_template_programs_check(program: Program) -> None:
    assert _parses(program.source)
    findings = check_source(program.source)
    codes = {f.code for f in findings}
    if not program.collision:
        assert findings == [], program.source
        return
    assert findings, program.source
    assert codes <= COLLISION_CODES, (codes, program.source)
    assert ("SPMD001" in codes) == program.collision_in, program.source
    assert ("SPMD002" in codes) == program.collision_out, program.source


@settings(SETTINGS, max_examples=examples(60))
@given(jax_programs(), st.sampled_from(FIX_STRATEGIES))
def test_template_programs_fix(program: Program, strategy: Strategy) -> None:
    options = Options(strategy=strategy, unsafe_fixes=True)
    result = fix_source(program.source, options)
    assert not [e for e in result.errors if e.startswith("internal error")], result.errors
    assert _parses(result.source), program.source
    assert fix_source(result.source, options).source == result.source, program.source
    if not program.collision:
        assert result.source == program.source
        return
    if result.changed:
        assert result.remaining == ()
        assert check_source(result.source) == [], (strategy, program.source, result.source)
    else:
        assume(False)  # this strategy has no fix for this program (a refusal): nothing more to check


def test_every_template_collision_is_fixed_by_auto() -> None:
    """With unsafe fixes on, auto fixes every generated collision (one of the three transforms applies)."""

    @settings(SETTINGS, max_examples=examples(40))
    @given(jax_programs().filter(lambda p: p.collision))
    def run(program: Program) -> None:
        result = fix_source(program.source, Options(unsafe_fixes=True))
        assert result.changed, program.source
        assert check_source(result.source) == []

    run()


# --- hostile inputs -------------------------------------------------------------------------------------

CASE = GOLDEN / "strip" / "basic_1d_spec"


def _case(transform=lambda s: s) -> tuple[str, str]:
    return (
        transform((CASE / "input.py").read_text(encoding="utf-8")),
        transform((CASE / "expected.py").read_text(encoding="utf-8")),
    )


STRIP = Options(strategy=Transform.STRIP)


def test_crlf_source_is_fixed_with_crlf_kept() -> None:
    source, expected = _case(lambda s: s.replace("\n", "\r\n"))
    lf_findings = check_source((CASE / "input.py").read_text(encoding="utf-8"))
    findings = check_source(source)
    assert [(f.code, f.message) for f in findings] == [(f.code, f.message) for f in lf_findings]
    result = fix_source(source, STRIP)
    assert result.source == expected
    assert "\n" not in result.source.replace("\r\n", "")


def test_non_ascii_identifiers_and_axis_names() -> None:
    def localize(text: str) -> str:
        text = re.sub(r"\blayer\b", "schicht_ä", text)
        text = re.sub(r"\bscale_shift\b", "maßstab_πλ", text)
        return text.replace("'x'", "'ξ'")

    source, expected = _case(localize)
    findings = check_source(source)
    assert {f.code for f in findings} == {"SPMD001", "SPMD002"}
    # Columns count code points: the finding is at the spec's axis literal.
    first = min(findings, key=lambda f: f.span.start)
    assert source[first.span.start : first.span.end] == "'ξ'"
    assert fix_source(source, STRIP).source == expected


def test_tab_indentation() -> None:
    def tabs(text: str) -> str:
        return re.sub(r"(?m)^((?:    )+)", lambda m: "\t" * (len(m.group(1)) // 4), text)

    source, expected = _case(tabs)
    assert "\t" in source
    assert len(check_source(source)) == 2
    assert fix_source(source, STRIP).source == expected


def test_bom_character_in_the_text_is_a_syntax_error() -> None:
    """A BOM decoded into the text (files are read with utf-8-sig, so only an API caller can do this) does
    not parse: one SPMD900 finding, and the text is returned unchanged."""
    source, _ = _case(lambda s: "\ufeff" + s)
    assert [f.code for f in check_source(source)] == ["SPMD900"]
    result = fix_source(source, STRIP)
    assert result.source == source and not result.changed


HOSTILE = {
    "empty": "",
    "only_words": "# vmap shard_map",
    "parens_100": HEADER + "y = " + "(" * 100 + "x" + ")" * 100 + "\n",
    "parens_200": HEADER + "y = " + "(" * 200 + "x" + ")" * 200 + "\n",  # the tokenizer's limit: parses
    "parens_201": HEADER + "y = " + "(" * 201 + "x" + ")" * 201 + "\n",  # "too many nested parentheses"
    "lists_100k": HEADER + "y = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "calls_5k": HEADER + "y = " + "f(" * 5_000 + "x" + ")" * 5_000 + "\n",
    "binop_50k": HEADER + "y = " + " + ".join(["x"] * 50_000) + "\n",
    "null_byte": HEADER + "x = 1\x00\n",
    "huge_line": HEADER + "y = [" + "1, " * 100_000 + "]  # " + "vmap " * 10_000 + "\n",
    "lone_surrogate": HEADER + "s = '\ud800'\n",
    "unterminated": HEADER + "def f(:\n",
    "only_header": HEADER,
    "form_feed": HEADER + "\f\nx = 1\n",
    "deep_indent": HEADER + "".join("    " * i + "if x:\n" for i in range(90)) + "    " * 90 + "pass\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_never_raise(name: str) -> None:
    source = HOSTILE[name]
    try:
        ast.parse(source)
        parses = True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        parses = False
    findings = check_source(source)
    # At most a tool-level finding: nothing here holds a collision.
    assert {f.code for f in findings} <= {"SPMD900"}
    for f in findings:
        assert 0 <= f.span.start <= f.span.end <= len(source)
    assert bool(findings) == (not parses)
    result = fix_source(source, Options(unsafe_fixes=True))
    # Unparseable: returned unchanged; parseable: nothing here to fix.
    assert result.source == source
    assert not result.changed


@pytest.mark.parametrize(
    ("name", "expect_900"),
    [
        ("parens_201", True),
        ("null_byte", True),
        ("unterminated", True),
        ("lists_100k", True),
        ("lone_surrogate", True),  # str.encode fails: a ValueError
        ("parens_200", False),
        ("parens_100", False),
    ],
)
def test_unparseable_inputs_give_one_syntax_finding(name: str, expect_900: bool) -> None:
    findings = check_source(HOSTILE[name])
    assert [f.code for f in findings] == (["SPMD900"] if expect_900 else [])


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12 parses these")
def test_the_newer_python_hint_only_for_newer_syntax() -> None:
    hint = "newer syntax needs a newer Python"
    for tail, hinted in (
        ("def f(:\n", False),
        ("x = = 1\n", False),
        ("type X = int\n", True),
        ("def g[T](x):\n    return x\n", True),
        ('x = f"{d["k"]}"\n', True),
    ):
        (finding,) = check_source(HEADER + tail)
        assert finding.code == "SPMD900" and (hint in finding.message) == hinted, (tail, finding.message)
