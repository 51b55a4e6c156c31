"""The differential fuzzer: generated JAX programs, spmdfix's check and fix, and JAX as the oracle.

    python fuzz/run.py --seed 0 --n 200 --jobs 2 [--time-budget SECONDS] [--out DIR] [--no-shrink]
    python fuzz/run.py --seeds 186,321 --jobs 1       # given seeds only (reproducing a violation)
    python fuzz/run.py --seeds 186,321 --untracked    # ... as drawn before issues 23's and 22's features

For each seed (seed .. seed+n-1) a program is generated (fuzz/gen.py), run, checked and fixed with every
strategy of `spmdfix.model.STRATEGIES`, with and without --unsafe-fixes, and every output is run
(fuzz/worker.py: one long-lived process per job imports jax once). fuzz/classify.py judges each program
against the four invariants. A violation is saved to --out, shrunk (fuzz/shrink.py) and printed with its kind;
violations listed in fuzz/known_open.py are counted apart. The exit status is 1 when a violation that is not
known-open was found, or when more than 5% of the programs that fail under JAX with an error a rule describes
(or run with wrong values) have only an SPMD910 record and no finding (issue 22: `classify.silence`). Counts
per invariant, issue 22's silence counts, and per tracked grammar feature (`gen.TRACKED`: how many programs
render it, fail as written, break an invariant), are printed at the end (and written to --out/summary.json).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz import gen
from fuzz.classify import INVARIANTS, ONLY_UNFOLLOWED, Verdict, Violation, judge, silence, silence_words
from fuzz.known_open import known_entry

WORKER = Path(__file__).with_name("worker.py")
PROGRAM_TIMEOUT = 120.0  # seconds for one program and all its fix outputs
RESTART_EVERY = 150
PROGRESS_EVERY = 25  # programs per worker process: compiled executables accumulate


class Worker:
    """One fuzz/worker.py process; `evaluate` sends a program and waits for its reply."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.served = 0

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, env=env, cwd=str(ROOT),
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        ready = self.lines.get(timeout=PROGRAM_TIMEOUT)
        if ready is None:
            raise RuntimeError("fuzz worker did not start")
        self.served = 0

    @staticmethod
    def _read(proc: subprocess.Popen, lines: queue.Queue) -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def evaluate(self, request: dict, timeout: float = PROGRAM_TIMEOUT) -> dict | None:
        """The worker's reply, or None when it timed out or died (it is then restarted on the next call)."""
        if self.proc is None or self.proc.poll() is not None or self.served >= RESTART_EVERY:
            self.close()
            self._start()
        self.served += 1
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            line = None
        if line is None:
            self.close()
            return None
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None


@dataclass
class Summary:
    """Counts over all programs, and the violations found (known-open ones apart)."""

    programs: int = 0
    timeouts: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    new: list[dict] = field(default_factory=list)
    known: list[dict] = field(default_factory=list)
    elapsed: float = 0.0
    features: dict[str, dict] = field(default_factory=dict)  # per tracked feature: see `add_features`
    # failing programs with only an SPMD910 record (issue 22): seed, features, the records
    only_unfollowed: list[dict] = field(default_factory=list)
    unfollowed_by_feature: dict[str, int] = field(default_factory=dict)  # of those, per tracked feature

    def add(self, verdict: Verdict) -> None:
        for name, n in verdict.counts.items():
            self.counts[name] = self.counts.get(name, 0) + n

    def add_features(self, seed: int, tracked: dict, status: str, verdict: Verdict) -> None:
        """Count one evaluated program under each tracked feature it renders (`gen.tracked`): `drawn`, per
        value; `failed` when the program as written raises or differs from its reference (a fix is then
        exercised); `violating` when it breaks an invariant (per invariant, a program counted once under each
        it breaks), with the first seeds. On code before the fix of
        a kind, `violating` > 0 shows the grammar draws the kind; after the fix it should be 0."""
        for name, value in tracked.items():
            entry = self.features.setdefault(name, {"drawn": 0, "failed": 0, "violating": 0, "values": {},
                                                    "violating_by_invariant": {}, "violating_seeds": []})
            entry["drawn"] += 1
            entry["values"][str(value)] = entry["values"].get(str(value), 0) + 1
            if status in ("raised", "differs"):
                entry["failed"] += 1
            if verdict.violations:
                entry["violating"] += 1
                for inv in sorted({v.invariant for v in verdict.violations}):
                    entry["violating_by_invariant"][inv] = entry["violating_by_invariant"].get(inv, 0) + 1
                if len(entry["violating_seeds"]) < 10:
                    entry["violating_seeds"].append(seed)

    def add_unfollowed(self, seed: int, features: dict, tracked: dict, reply: dict, verdict: Verdict) -> bool:
        """Record a failing program that has only SPMD910 records (no finding): True when it is one."""
        if not any(k in verdict.counts for k in ONLY_UNFOLLOWED):
            return False
        self.only_unfollowed.append({"seed": seed, "features": gen.describe(features),
                                     "error": reply["original"]["error"][:200],
                                     "unfollowed": reply.get("unfollowed", [])[:5]})
        for name in tracked:
            self.unfollowed_by_feature[name] = self.unfollowed_by_feature.get(name, 0) + 1
        return True

    def violations_by_invariant(self) -> dict[str, int]:
        out = {inv: 0 for inv in INVARIANTS}
        for v in self.new + self.known:
            out[v["invariant"]] += 1
        return out

    def silence(self) -> dict:
        """Issue 22's counts of failing programs: with a finding, with only an SPMD910 record, with neither."""
        return silence(self.counts)

    def failed(self) -> bool:
        """Whether the run fails: a violation no known-open entry covers, or too many failing programs with only
        an SPMD910 record."""
        return bool(self.new) or not self.silence()["within_limit"]

    def as_dict(self) -> dict:
        return {"programs": self.programs, "timeouts": self.timeouts, "elapsed": round(self.elapsed, 1),
                "counts": dict(sorted(self.counts.items())), "violations": self.violations_by_invariant(),
                "silence": self.silence(), "only_unfollowed": self.only_unfollowed,
                "only_unfollowed_by_feature": self.unfollowed_by_feature,
                "features": {name: self.features[name] for name in gen.TRACKED if name in self.features},
                "new": self.new, "known": self.known}


def _slug(key: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in key).strip("_")


def fuzz(seeds: list[int], jobs: int = 2, time_budget: float | None = None, out: Path | None = None,
         shrink: bool = True, log=print, untracked: bool = False) -> Summary:
    """Generate, run, check and fix the programs of `seeds` with `jobs` workers; a Summary of the run.

    `untracked`: issue 23's and issue 22's features off (`gen.without_tracked`), the programs the seeds had
    before them.

    Stops dispatching new seeds once `time_budget` seconds have passed. Each violation kind (key) that is not
    known-open is shrunk once (fuzz/shrink.py) and saved to `out` with the unshrunk program.
    """
    from fuzz.shrink import shrink_program

    start = time.monotonic()
    summary = Summary()
    lock = threading.Lock()
    shrunk_keys: set[str] = set()
    pending = queue.Queue()
    for s in seeds:
        pending.put(s)

    def over_budget() -> bool:
        return time_budget is not None and time.monotonic() - start > time_budget

    def drive() -> None:
        worker = Worker()
        try:
            while not over_budget():
                try:
                    seed = pending.get_nowait()
                except queue.Empty:
                    return
                features = gen.draw(seed)
                if untracked:
                    features = gen.without_tracked(features)
                source = gen.render(features, f"fuzz seed {seed}")
                reply = worker.evaluate({"id": seed, "source": source, "spmd_vmap": gen.spmd_vmap(features)})
                with lock:
                    summary.programs += 1
                    if summary.programs % PROGRESS_EVERY == 0:
                        log(f"progress: {summary.programs} programs in {time.monotonic() - start:.0f}s, "
                            f"{len(summary.new)} new violations, {len(summary.known)} known-open")
                    if reply is None:
                        summary.timeouts += 1
                        log(f"seed {seed}: timed out")
                        continue
                verdict = judge(reply)
                to_shrink = []
                with lock:
                    summary.add(verdict)
                    summary.add_features(seed, gen.tracked(features), reply["original"]["status"], verdict)
                    if summary.add_unfollowed(seed, features, gen.tracked(features), reply, verdict):
                        first = (reply.get("unfollowed") or [{}])[0]
                        log(f"ONLY SPMD910 seed {seed}: line {first.get('line')}: {first.get('what', '')[:160]}")
                    for v in verdict.violations:
                        known = known_entry(v, gen.resolved(features))
                        record = _record(seed, v, features, known)
                        (summary.known if known else summary.new).append(record)
                        if known is None:
                            log(f"VIOLATION seed {seed}: {v.key} ({v.detail[:160]})")
                            if out is not None:
                                _save(out, seed, v, source, None, None)
                            if shrink and v.key not in shrunk_keys:
                                shrunk_keys.add(v.key)
                                to_shrink.append(v)
                for v in to_shrink:
                    if over_budget():
                        break
                    small, small_v = shrink_program(worker, features, v)
                    small_source = gen.render(small, f"fuzz seed {seed}, shrunk for {v.key}")
                    log(f"  shrunk {v.key}: {gen.describe(small) or 'defaults'}")
                    if out is not None:
                        _save(out, seed, v, source, small_source, small_v)
        finally:
            worker.close()

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for f in [pool.submit(drive) for _ in range(jobs)]:
            f.result()
    summary.elapsed = time.monotonic() - start
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(summary.as_dict(), indent=1) + "\n")
    return summary


def _record(seed: int, v: Violation, features: dict, known) -> dict:
    return {"seed": seed, "invariant": v.invariant, "key": v.key, "transforms": list(v.transforms),
            "detail": v.detail[:300], "features": gen.describe(features),
            "known": None if known is None else known.item}


def _save(out: Path, seed: int, v: Violation, source: str, small: str | None, small_v: Violation | None) -> None:
    folder = out / _slug(v.key)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed{seed}.py").write_text(source)
    if small is not None:
        (folder / f"seed{seed}_shrunk.py").write_text(small)
        if small_v is not None and small_v.output:
            (folder / f"seed{seed}_shrunk_output.py").write_text(small_v.output)
        (folder / f"seed{seed}_shrunk.txt").write_text(
            f"{v.key}: {(small_v or v).detail}\ntransforms applied: {', '.join((small_v or v).transforms)}\n")


def print_summary(summary: Summary, log=print) -> None:
    """Counts per invariant, then the violations by kind."""
    c = summary.counts
    log(f"programs: {summary.programs} in {summary.elapsed:.0f}s, timeouts {summary.timeouts}; "
        f"match {c.get('program:match', 0)}, raised {c.get('program:raised', 0)}, "
        f"differs {c.get('program:differs', 0)}, invalid {c.get('program:invalid', 0)}")
    log("counts: " + ", ".join(f"{k}={n}" for k, n in sorted(c.items()) if not k.startswith("program:")))
    by_inv = summary.violations_by_invariant()
    log("violations per invariant: " + ", ".join(f"{inv}={n}" for inv, n in by_inv.items()))
    log(f"silence (issue 22): {silence_words(summary.silence())}")
    for name in gen.TRACKED:
        e = summary.features.get(name, {"drawn": 0, "failed": 0, "violating": 0, "violating_seeds": []})
        seeds = e["violating_seeds"]
        by_inv = ", ".join(f"{inv} {n}" for inv, n in e.get("violating_by_invariant", {}).items())
        only = summary.unfollowed_by_feature.get(name, 0)
        log(f"feature {name}: drawn {e['drawn']}, failed as written {e['failed']}, violating {e['violating']}"
            + (f" [{by_inv}]" if by_inv else "") + (f", only SPMD910 {only}" if only else "")
            + (f" (seeds {', '.join(map(str, seeds[:6]))})" if seeds else ""))
    for title, records in (("NEW (not known-open)", summary.new), ("known-open", summary.known)):
        kinds: dict[str, list[int]] = {}
        for r in records:
            kinds.setdefault(r["key"], []).append(r["seed"])
        log(f"{title}: {len(records)}")
        for key, seeds in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            log(f"  {len(seeds):4d}  {key}  (seeds {', '.join(map(str, seeds[:6]))}{' ...' if len(seeds) > 6 else ''})")


def _seed_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of seeds: {text!r}") from e


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--n", type=int, default=100, help="number of programs")
    parser.add_argument("--seeds", type=_seed_list, default=None,
                        help="comma-separated seeds to run instead of --seed/--n (e.g. 186,321)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--time-budget", type=float, default=None, help="stop starting programs after this many s")
    parser.add_argument("--out", type=Path, default=None, help="folder for violating programs and summary.json")
    parser.add_argument("--no-shrink", action="store_true", help="save violations without shrinking them")
    parser.add_argument("--untracked", action="store_true",
                        help="issue 23's and 22's grammar features off: the programs seeds had before them "
                             "(fuzz/README.md)")
    args = parser.parse_args(argv)
    seeds = args.seeds if args.seeds is not None else list(range(args.seed, args.seed + args.n))
    summary = fuzz(seeds, args.jobs, args.time_budget, args.out, not args.no_shrink, untracked=args.untracked)
    print_summary(summary)
    return 1 if summary.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
