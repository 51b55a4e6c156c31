"""The tool-level codes: what spmdfix reports about a run rather than about JAX code.

They have no rule logic of their own and no fixes: SPMD900 comes from the parse (`api`, `notebook`), SPMD901
from reading a file (the runner, the CLI), SPMD910 from the analysis' record of what it could not follow
(`model.Unfollowed`; information, not a finding). Docs: `spmdfix/rules/docs/SPMD900.md`, `SPMD901.md`,
`SPMD910.md`.
"""

from __future__ import annotations

from spmdfix.rules.rule import Rule

SYNTAX_ERROR = Rule("SPMD900", "syntax-error", "the file does not parse, so it was not analysed")
UNREADABLE = Rule("SPMD901", "unreadable-file", "the file could not be read or decoded")
# information, not a finding: counted, listed with --show-unresolved
UNFOLLOWED = Rule("SPMD910", "spmd-vmap-not-followed", "(information) an spmd vmap leads to code of the project the analysis could not follow")
RULES = (SYNTAX_ERROR, UNREADABLE, UNFOLLOWED)
