"""Judges one evaluated program (a reply of fuzz/worker.py) against the fuzzer's four invariants. Pure.

1. `safe-fix`: an output of `spmdfix fix --strategy S` (a named strategy, without --unsafe-fixes) runs and
   matches the reference, or `spmdfix check` still reports on it a finding whose rule describes the error it
   raises (a partial fix). Any other failure, and any output with wrong values, is a wrong safe fix.
2. `auto-fix`: the same for `--strategy auto`: the fix `auto` chooses without --unsafe-fixes runs and matches the
   reference, or leaves a finding that explains the failure (issue 23's invariant). As for safe-fix, an output
   failing exactly as the input did, for a reason no rule describes (`same-failure`), is not the fix's doing and
   breaks nothing. Its outcomes are also tallied apart as `fix:auto:<outcome>`.
3. `finding`: a program that raises an error one of the rules describes (`EXPLAINS`) gets a finding of such a
   rule; one that runs with wrong values gets a finding. Short of that, an SPMD910 record (a place the analysis
   says it could not follow: the reply's `unfollowed`) is not silence: counted as only-SPMD910
   (`finding:only-unfollowed`), which the run bounds as a share of the failing programs (issue 22: at most 5%,
   `ONLY_UNFOLLOWED_LIMIT`, fuzz/run.py); neither a finding nor a record is silence, a violation.
4. `clean`: a program that runs and matches its reference gets no finding, unless the rule documents the
   warning there (`DOCUMENTED_WARNINGS`).
Outputs of --unsafe-fixes runs are counted (how often they run) but judged by no invariant: unsafe means the
tool does not promise the values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Error text (substring of "Type: message") -> the rules whose documentation describes that error
# (spmdfix/rules/docs/SPMD00x.md, "Why is this bad?"). A finding of one of them explains a program failing with it.
EXPLAINS: tuple[tuple[str, frozenset[str]], ...] = (
    # A plain vmap mapping away an Explicit-placed axis a spec names (SPMD006.md), and an spmd vmap whose batch
    # is placed on the Explicit spmd axis a nested shard_map names (SPMD001.md): listed before the plain
    # in_specs text, which it contains, since the first text found decides
    ("vmapped away explicit mesh axis cannot appear in shard_map", frozenset({"SPMD001", "SPMD002", "SPMD006"})),
    ("cannot appear in shard_map in_specs", frozenset({"SPMD001"})),
    ("cannot appear in shard_map out_specs", frozenset({"SPMD002"})),
    ("cannot appear in with_sharding_constraint", frozenset({"SPMD005"})),
    ("pvary is a invariant->variant", frozenset({"SPMD002", "SPMD004", "SPMD007"})),
    # H2 when the body combines its block with an operand no vmap batches (lift-captures' form; seed 5014)
    ("requires varying manual axes to match", frozenset({"SPMD007"})),
    # H4 (a partial-manual shard_map whose axis_names lacks the spmd axis) under jit, pre-placed captures, and
    # SPMD006's inner vmap mapping away an Explicit-placed axis under jit (SPMD006.md names this text; seed 70866)
    ("should be of type `Manual`", frozenset({"SPMD001", "SPMD002", "SPMD003", "SPMD006", "SPMD008"})),
    # SPMD003's capture, and hazard H2 (SPMD007) when a jax.jit sits between the inner vmap and the shard_map
    ("ManualAxisType(", frozenset({"SPMD003", "SPMD007"})),
    ("size of operand dimension", frozenset({"SPMD003"})),
    # ... and SPMD006's inner vmap mapping away a placed axis under jit (seed 321's form)
    ("manual_axis_type", frozenset({"SPMD001", "SPMD002", "SPMD003", "SPMD006", "SPMD008"})),
    ("must refer to an axis marked as manual", frozenset({"SPMD001", "SPMD002", "SPMD006", "SPMD008"})),
    # H2 with the inner vmap spelled jax.lax.map(..., batch_size=k) under check_vma=True (issue 22 kind 7;
    # SPMD007's message names it; safety/measurements/lax_map_and_smap_infer.py)
    ("which require replication which can't be statically inferred", frozenset({"SPMD007"})),
    # SPMD003's capture on an Explicit mesh (a batched value under all-replicated specs, a value whose input is
    # placed beyond its batch dimension, a closure over a placed array: `For primitive mul, context mesh ...`)
    ("should match the aval mesh", frozenset({"SPMD003"})),
    # ... and a capture over an Auto spmd axis, or of an input placed on Explicit axes (SPMD003.md)
    ("Closing over inputs to shard_map", frozenset({"SPMD003"})),
    # SPMD008's axis_names naming the spmd axis while the batch is placed on it (Explicit mesh; SPMD006.md names
    # the same error for a plain vmap mapping the axis away)
    ("to be a subset of mesh.axis_names", frozenset({"SPMD006", "SPMD008"})),
    # A placement inside the vmapped function naming the axis the batch is on: a jit's in/out_shardings under an
    # spmd vmap (SPMD005.md), a `jax.sharding.reshard` of a batched value with the batch placed on that Explicit
    # axis (SPMD005.md under spmd_axis_name, SPMD006.md under a plain vmap; fuzz seed 200100), and an spmd axis
    # with `jax_disable_vmap_shmap_error` set (SPMD001.md). JAX: `DuplicateSpecError: A single NamedSharding spec
    # specification can map every mesh axis to at most one positional dimension, but P('x', 'x') has duplicate
    # entries for `x``
    ("DuplicateSpecError", frozenset({"SPMD001", "SPMD005", "SPMD006"})),
)

# The rules that describe an error of a program whose vmap is plain (no spmd_axis_name): SPMD006 (the vmap maps
# away a placed axis a spec names) and SPMD008 (`check_vma=False` over a batch placed on an Explicit axis, its
# doc's plain-vmap paragraph), whatever the error text; the others describe what an spmd vmap meets, except
# for the texts of PLAIN_VMAP_TEXTS.
PLAIN_VMAP_RULES = frozenset({"SPMD006", "SPMD008"})
# Error text -> the rules that describe it under a plain vmap too: SPMD003 for `For primitive mul, context mesh
# ... should match the aval mesh`, a shard_map body closing over a value the plain vmap batches while its batch
# is placed on an Explicit axis (SPMD003.md's plain-vmap paragraph; fuzz seed 250076), and `Closing over inputs to
# shard_map`, a body closing over an array placed with device_put or an unmapped argument committed to the mesh
# while the batch dimension is placed on no axis (SPMD003.md; fuzz seed 310000;
# safety/measurements/plain_vmap_placed_spellings.py, parts 2 and 5). Its other texts (`ManualAxisType(`, ...)
# are what an spmd vmap meets.
PLAIN_VMAP_TEXTS: tuple[tuple[str, frozenset[str]], ...] = (
    ("should match the aval mesh", frozenset({"SPMD003"})),
    ("Closing over inputs to shard_map", frozenset({"SPMD003"})),
)

# (rule code, feature predicate) pairs where a rule documents a warning on a program that runs correctly.
# Empty: no rule doc says it warns on code JAX runs correctly (SPMD007's doc says JAX raises there).
DOCUMENTED_WARNINGS: tuple[tuple[str, dict], ...] = ()

SAFE_FIX, AUTO_FIX, FINDING, CLEAN = "safe-fix", "auto-fix", "finding", "clean"
INVARIANTS = (SAFE_FIX, AUTO_FIX, FINDING, CLEAN)

# Issue 22: of the programs that fail under JAX with an error a rule describes (or run with wrong values), at
# most this share may have only an SPMD910 record and no finding: the analysis must resolve, not give up.
ONLY_UNFOLLOWED_LIMIT = 0.05
# The finding invariant's counts of failing programs: with a finding, with only an SPMD910 record, with neither
# (raised with an error a rule describes; the "-silent" forms ran with wrong values).
FOUND = ("finding:found", "finding:found-silent")
ONLY_UNFOLLOWED = ("finding:only-unfollowed", "finding:only-unfollowed-silent")
NEITHER = ("finding:not-followed", "finding:not-followed-silent")


def silence(counts: dict[str, int]) -> dict:
    """Issue 22's counts over a run (`counts`: the summed Verdict counts): the programs that fail under JAX with
    an error a rule describes or run with wrong values (`failing`), of those with a finding, with only an
    SPMD910 record, with neither; the share with only a record, and whether it is within the limit."""
    found = sum(counts.get(k, 0) for k in FOUND)
    only = sum(counts.get(k, 0) for k in ONLY_UNFOLLOWED)
    neither = sum(counts.get(k, 0) for k in NEITHER)
    failing = found + only + neither
    share = only / failing if failing else 0.0
    return {"failing": failing, "finding": found, "only_unfollowed": only, "neither": neither,
            "only_unfollowed_share": round(share, 4), "within_limit": share <= ONLY_UNFOLLOWED_LIMIT}


def silence_words(s: dict) -> str:
    """`silence`'s counts as the sentence both fuzzers print (fuzz/run.py, fuzz/project.py)."""
    return (
        f"{s['failing']} programs fail with an error a rule describes or wrong values; with a finding {s['finding']}, "
        f"with only an SPMD910 record {s['only_unfollowed']} ({100 * s['only_unfollowed_share']:.1f}%, limit "
        f"{100 * ONLY_UNFOLLOWED_LIMIT:.0f}%{'' if s['within_limit'] else ': OVER THE LIMIT'}), with neither {s['neither']}"
    )


def explaining_rules(error: str) -> frozenset[str] | None:
    """The rules that describe `error`, or None when no rule does."""
    for text, codes in EXPLAINS:
        if text in error:
            return codes
    return None


def signature(error: str) -> str:
    """A short stable name for an error: the EXPLAINS text it contains, else its exception type."""
    for text, _ in EXPLAINS:
        if text in error:
            return text
    return error.split(":", 1)[0] or "unknown"


def failure(error: str) -> str:
    """The exception type and the first words of its message: two errors equal under it are the same failure."""
    return " ".join(error.split()[:6])


@dataclass(frozen=True)
class Violation:
    """One broken invariant. `key` names its kind (what shrinking preserves and known_open matches):
    `safe-fix:<strategy>:<outcome>`, `auto-fix:<outcome>`, `finding:missed:<error>`, `clean:<code>`."""

    invariant: str
    key: str
    strategy: str
    unsafe: bool
    detail: str
    transforms: tuple[str, ...] = ()
    output: str = ""
    remaining: tuple[str, ...] = ()  # the codes check still reports on the output


@dataclass
class Verdict:
    """What one program counted towards each invariant, and the invariants it broke."""

    counts: dict[str, int] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n


def judge(reply: dict) -> Verdict:
    """The verdict on one worker reply (fuzz/worker.py's protocol)."""
    v = Verdict()
    original = reply["original"]
    if original["status"] == "invalid":
        v.count("program:invalid")
        return v
    v.count(f"program:{original['status']}")
    codes = {f["code"] for f in reply["findings"]}
    _judge_findings(v, original, codes, bool(reply.get("unfollowed")), reply.get("spmd_vmap", True))
    for fix in reply["fixes"]:
        if fix["error"].startswith("crash"):
            inv = AUTO_FIX if fix["strategy"] == "auto" else SAFE_FIX
            v.violations.append(Violation(inv, f"{inv}:{fix['strategy']}:tool-crash", fix["strategy"], fix["unsafe"],
                                          fix["error"]))
            continue
        if fix["output"] is None:
            v.count(f"fix:{'unsafe' if fix['unsafe'] else 'safe'}:unchanged")
            continue
        out = reply["outputs"][fix["output"]]
        _judge_output(v, original, fix, out)
    return v


def _judge_findings(v: Verdict, original: dict, codes: set[str], unfollowed: bool, spmd_vmap: bool) -> None:
    """The finding and clean invariants. `unfollowed`: the program has an SPMD910 record (which excuses a
    missing finding one program at a time, and is bounded as a share over the run); `spmd_vmap`: its vmap has
    spmd_axis_name (else only `PLAIN_VMAP_RULES`, and `PLAIN_VMAP_TEXTS` for their texts, describe its errors)."""
    status, error = original["status"], original["error"]
    if status == "raised":
        rules = explaining_rules(error)
        if rules is not None and not spmd_vmap:
            plain = PLAIN_VMAP_RULES.union(*(codes for text, codes in PLAIN_VMAP_TEXTS if text in error))
            rules = (rules & plain) or None
        if rules is None:
            v.count("finding:other-error")
            return
        if codes & rules:
            v.count("finding:found")
        elif unfollowed:
            v.count("finding:only-unfollowed")
        else:
            v.count("finding:not-followed")
            v.violations.append(Violation(FINDING, f"{FINDING}:missed:{signature(error)}", "", False, error))
    elif status == "differs":
        if codes:
            v.count("finding:found-silent")
        elif unfollowed:
            v.count("finding:only-unfollowed-silent")
        else:
            v.count("finding:not-followed-silent")
            v.violations.append(Violation(FINDING, f"{FINDING}:missed:wrong-values", "", False, error))
    elif status == "match":
        if not codes:
            v.count("clean:ok")
        for code in sorted(codes):
            v.count("clean:false-positive")
            v.violations.append(Violation(CLEAN, f"{CLEAN}:{code}", "", False, f"{code} on a program that runs "
                                          "and matches its reference"))


def _judge_output(v: Verdict, original: dict, fix: dict, out: dict) -> None:
    strategy, unsafe = fix["strategy"], fix["unsafe"]
    inv = AUTO_FIX if strategy == "auto" else SAFE_FIX
    run = out["run"]
    codes = {f["code"] for f in out["findings"]}
    status = run["status"]
    if status == "match":
        outcome = "fixed"
    elif status == "differs":
        # wrong values are a wrong fix unless the input already ran with wrong values and a finding remains
        outcome = "partial" if original["status"] == "differs" and codes else "wrong-values"
    elif status == "invalid":
        outcome = "broke-reference"
    else:
        rules = explaining_rules(run["error"])
        if rules is not None and codes & rules:
            outcome = "partial"
        elif rules is None and original["status"] == "raised" and failure(run["error"]) == failure(original["error"]):
            # the input already failed this way, for a reason no rule describes: the fix did not cause it
            outcome = "same-failure"
        elif not codes:
            outcome = "clean-but-fails"
        else:
            outcome = "fails-unexplained"
    mode = "unsafe" if unsafe else "safe"
    v.count(f"fix:{mode}:{outcome}")
    if strategy == "auto" and not unsafe:
        v.count(f"fix:auto:{outcome}")  # the auto-fix invariant's own tally (also counted under fix:safe)
    if unsafe or outcome in ("fixed", "partial", "same-failure"):
        return
    prefix = f"{inv}:{strategy}" if inv == SAFE_FIX else inv
    detail = run["error"] or "values differ"
    v.violations.append(Violation(inv, f"{prefix}:{outcome}", strategy, unsafe, detail,
                                  tuple(fix.get("transforms", ())), out["source"], tuple(sorted(codes))))
