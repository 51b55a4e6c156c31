"""Latency of the language server: time from a didChange to the publishDiagnostics of that version.

Starts `python -m spmdfix.lsp` over stdio with pygls's client, opens a generated ~2,000-line model-like
module, then sends N incremental changes (one character typed into, then removed from, a comment), each
after the previous publication arrived, and prints median / p90 / min / max per scenario:

- `collision`: the module holds one vmap(spmd_axis_name='x') -> shard_map(P('x', ...)) collision;
- `clean`: a module of the same size that mentions neither `spmd_axis_name` nor `shard_map` (the textual
  prefilter answers without parsing).

Each runs with the default debounce (30 ms) and with debounce 0 (the server's own cost). The in-process
cost of `check_source` on the same text is printed for reference. Targets: collision < 100 ms, clean
< 20 ms + debounce.

`--project N` (N modules, e.g. 1000) times instead a module of a generated project (`gen_project.py`,
written to a temporary directory, or `--project-dir DIR` when it exists there already): the server opens
`src/proj/layers.py`, whose spec the spmd vmaps of 11 importers reach (22 diagnostics: a partial run,
`spmdfix.reaching`), and each change types into its docstring; the document is diagnosed with what
reaches it from the project's importers on disk. Target: median < 100 ms.

Usage: python bench/lsp_latency.py [--runs 20] [--lines 2000]
       python bench/lsp_latency.py --project 1000 [--runs 30] [--project-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import textwrap
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
URI = "file:///bench/model.py"
COMMENT_LINE = 1  # the line the benchmark types into: "# model: ..."


def model_module(lines: int, collision: bool) -> str:
    """A model-like module of about `lines` lines: many ordinary layers, and optionally one collision."""
    head = [
        "import jax",
        "# model: generated for the latency benchmark",
        "import jax.numpy as jnp",
        "import numpy as np",
    ]
    if collision:
        head += [
            "from jax.sharding import Mesh, PartitionSpec as P",
            "",
            "mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))",
        ]
    parts = ["\n".join(head) + "\n"]
    tail = ""
    if collision:
        tail = textwrap.dedent(
            """

            def apply(x):
                return jax.shard_map(layer_0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


            def batched(x):
                return jax.vmap(apply, spmd_axis_name='x')(x)
            """
        )
    parts += layers(lines - parts[0].count("\n") - tail.count("\n"))
    return "".join(parts) + tail


def layers(lines: int) -> list[str]:
    """Ordinary dense layers `layer_0`, `layer_1`, ... (no finding), as many as make at least `lines` lines;
    shared with editor_latency.py so both benchmarks time the same kind of module."""
    blocks: list[str] = []
    total = 0
    while total < lines:
        i = len(blocks)
        block = textwrap.dedent(
            f'''

            def layer_{i}(params, x, *, scale=1.0):
                """Layer {i}: a dense block with a residual connection."""
                w = params["w_{i}"]
                b = params.get("b_{i}", 0.0)
                h = jnp.dot(x, w) + b
                h = jax.nn.gelu(h) * scale
                if h.ndim > 2:
                    h = h.reshape(h.shape[0], -1)
                return h + x[..., : h.shape[-1]]
            '''
        )
        blocks.append(block)
        total += block.count("\n")
    return blocks


async def measure(
    text: str, runs: int, debounce_ms: int | None, uri: str = URI, typed_at: tuple[int, int] | None = None
) -> tuple[list[float], int]:
    """Latencies (ms) of `runs` didChange -> publishDiagnostics round trips, and the diagnostics count, on the
    document `uri` holding `text`; each change types a character at `typed_at` (line, character; by default
    the end of the comment line) or deletes it."""
    client = LanguageClient("spmdfix-bench", "0")
    published: dict[int, asyncio.Future[tuple[float, int]]] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: lsp.PublishDiagnosticsParams) -> None:
        fut = published.get(params.version or -1)
        if fut is not None and not fut.done():
            fut.set_result((time.perf_counter(), len(params.diagnostics)))

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def on_log(params: lsp.LogMessageParams) -> None:
        print(f"server: {params.message}", file=sys.stderr)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    await client.start_io(sys.executable, "-m", "spmdfix.lsp", env=env)
    options = {} if debounce_ms is None else {"debounce_ms": debounce_ms}
    await client.initialize_async(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options=options)
    )
    client.initialized(lsp.InitializedParams())
    loop = asyncio.get_running_loop()

    def expect(version: int) -> asyncio.Future[tuple[float, int]]:
        published[version] = loop.create_future()
        return published[version]

    first = expect(1)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        )
    )
    _, count = await asyncio.wait_for(first, 120)
    line, column = typed_at if typed_at is not None else (COMMENT_LINE, len(text.splitlines()[COMMENT_LINE]))
    latencies = []
    for version in range(2, runs + 2):
        # Type one character at the end of the comment line, then delete it: the text alternates.
        at = lsp.Position(line=line, character=column)
        if version % 2 == 0:
            change = lsp.TextDocumentContentChangePartial(range=lsp.Range(start=at, end=at), text="x")
        else:
            end = lsp.Position(line=line, character=column + 1)
            change = lsp.TextDocumentContentChangePartial(range=lsp.Range(start=at, end=end), text="")
        fut = expect(version)
        start = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]
            )
        )
        done, n = await asyncio.wait_for(fut, 30)
        assert n == count, f"diagnostics changed from {count} to {n} at version {version}"
        latencies.append((done - start) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, count


def check_source_ms(text: str, runs: int) -> float:
    sys.path.insert(0, str(ROOT))
    import spmdfix

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        spmdfix.check_source(text)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def project_rows(modules: int, runs: int, directory: Path | None) -> list[tuple]:
    """The rows of `--project`: the generated project's `layers.py` diagnosed with its importers' findings."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gen_project import generate

    with tempfile.TemporaryDirectory(prefix="spmdfix-lsp-project-") as scratch:
        root = directory if directory is not None else Path(scratch) / "project"
        if not (root / "src" / "proj" / "layers.py").exists():
            generate(root, modules)
        layers = (root / "src" / "proj" / "layers.py").resolve()
        text = layers.read_text()
        rows = []
        for debounce in (None, 0):
            lat, count = asyncio.run(measure(text, runs, debounce, layers.as_uri(), typed_at=(0, 3)))
            rows.append(_row(f"project{modules}", text, count, debounce, float("nan"), lat, 100.0))
            # Every other change types a character (a text unlike the file's: the importers are analysed
            # again with it), the next deletes it (the file's text again: their findings are kept).
            typed, restored = lat[0::2], lat[1::2]
            print(
                f"project{modules}, debounce {debounce}: median of the {len(typed)} typed texts "
                f"{statistics.median(typed):.1f} ms (p90 {statistics.quantiles(typed, n=10)[-1]:.1f}), of the "
                f"{len(restored)} texts back to the file's {statistics.median(restored):.1f} ms",
                file=sys.stderr,
            )
    return rows


def _row(name: str, text: str, count: int, debounce: int | None, analysis: float, lat: list[float], goal: float) -> tuple:
    from spmdfix.lsp import DEFAULT_DEBOUNCE_MS

    effective = DEFAULT_DEBOUNCE_MS if debounce is None else debounce
    med = statistics.median(lat)
    p90 = statistics.quantiles(lat, n=10)[-1] if len(lat) >= 2 else lat[0]
    return (
        name,
        text.count("\n"),
        count,
        f"{effective} ms" + (" (default)" if debounce is None else ""),
        analysis,
        med,
        p90,
        min(lat),
        max(lat),
        goal,
        "yes" if med < goal else "NO",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--project", type=int, metavar="N", help="time a module of a generated N-module project")
    parser.add_argument("--project-dir", type=Path, help="where the project is (generated there when absent)")
    args = parser.parse_args()
    from spmdfix.lsp import DEFAULT_DEBOUNCE_MS

    rows = []
    load_before = os.getloadavg()
    if args.project:
        rows += project_rows(args.project, args.runs, args.project_dir)
    else:
        scenarios = [
            ("collision", model_module(args.lines, collision=True), 100.0),
            ("clean", model_module(args.lines, collision=False), None),
        ]
        for name, text, target in scenarios:
            assert ("spmd_axis_name" in text) == (name == "collision")
            analysis = check_source_ms(text, args.runs)
            for debounce in (None, 0):
                lat, count = asyncio.run(measure(text, args.runs, debounce))
                effective = DEFAULT_DEBOUNCE_MS if debounce is None else debounce
                goal = target if target is not None else 20.0 + effective
                rows.append(_row(name, text, count, debounce, analysis, lat, goal))
    header = ("file", "lines", "diags", "debounce", "check_source", "median", "p90", "min", "max", "target", "met")
    load = ", ".join(f"{a:.2f}" for a in load_before) + " -> " + ", ".join(f"{a:.2f}" for a in os.getloadavg())
    print(f"didChange -> publishDiagnostics over stdio, {args.runs} runs each, times in ms; load average {load}\n")
    fmt = "{:<12} {:>5} {:>5} {:<14} {:>12} {:>7} {:>7} {:>7} {:>7} {:>7} {:>4}"
    print(fmt.format(*header))
    for r in rows:
        print(
            fmt.format(
                r[0],
                r[1],
                r[2],
                r[3],
                f"{r[4]:.1f}",
                f"{r[5]:.1f}",
                f"{r[6]:.1f}",
                f"{r[7]:.1f}",
                f"{r[8]:.1f}",
                f"< {r[9]:.0f}",
                r[10],
            )
        )


if __name__ == "__main__":
    main()
