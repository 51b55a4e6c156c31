"""What a module's bytes prove before it is decoded: that a check of it ends with nothing found.

Most files of a tree hold no `vmap` at all; the runner gives them the result a check would give
(`Checked`, nothing found) from their bytes alone, without decoding or preparing them (a worker's first
pass over the 3,330 files of the reference corpus: bench/README.md, "The analysis side of a cold run").
"""

from __future__ import annotations

from pathlib import Path

from spmdfix import pipeline
from spmdfix.files import FileError, decode, plain_ascii
from spmdfix.prefilter import utf8_may_have_findings


def bytes_prove_clean(path: str | Path, raw: bytes, include_generated: bool = False) -> bool:
    """True when a check of the module at `path` (a path or its string), whose bytes are `raw`, ends
    `Checked` with nothing found, as its bytes show: `clean_if_utf8`, and `decode` reads them as UTF-8,
    which a plain ASCII text (`files.plain_ascii`) shows without being decoded. False also for a text that
    does not decode (the full run reports it, SPMD901)."""
    if not clean_if_utf8(path, raw, include_generated):
        return False
    if plain_ascii(raw):
        return True
    try:
        source = decode(Path(path), raw)
    except FileError:
        return False
    return source.encoding in ("utf-8", "utf-8-sig")


def clean_if_utf8(path: str | Path, raw: bytes, include_generated: bool = False) -> bool:
    """True when the module at `path` (a path or its string), whose bytes are `raw`, cannot hold a finding
    if `decode` reads them as UTF-8 (the caller checks that): `prefilter.utf8_may_have_findings` says so,
    and neither would `prepare` skip the text (`@generated`, unless `include_generated`) nor read it as JSON
    (a notebook)."""
    return (
        not str(path).endswith(".ipynb")
        and (include_generated or not _marked_generated(raw))
        and not utf8_may_have_findings(raw)
    )


_GENERATED = pipeline.GENERATED_MARK.encode()  # (ASCII: its bytes are in any UTF-8 text that holds it)


def _marked_generated(raw: bytes) -> bool:
    """Whether the mark `pipeline.is_generated` looks for is in the bytes of its first lines (the text's
    first `GENERATED_LINES` lines, split at "\n" as it splits them), without a scan of the whole file."""
    end = -1
    for _ in range(pipeline.GENERATED_LINES):
        end = raw.find(b"\n", end + 1)
        if end < 0:
            end = len(raw)
            break
    return raw.find(_GENERATED, 0, end) >= 0
