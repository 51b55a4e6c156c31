"""The tool-level codes: what spmdfix reports about a run rather than about JAX code.

They have no rule logic of their own and no fixes: SPMD900 comes from the parse (`api`, `notebook`), SPMD901
from reading a file (the runner, the CLI), SPMD910 from the analysis' record of what it could not follow
(`model.Unfollowed`; information, not a finding). Docs: `spmdfix/rules/docs/SPMD900.md`, `SPMD901.md`,
`SPMD910.md`.
"""

from __future__ import annotations

from spmdfix.rules.codes import SYNTAX_ERROR, UNFOLLOWED, UNREADABLE

RULES = (SYNTAX_ERROR, UNREADABLE, UNFOLLOWED)
