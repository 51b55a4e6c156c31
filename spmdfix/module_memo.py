"""The parsed modules of the project shared between the project indexes of one process (`ModuleMemo`).

A project index parses each module it follows a name into and builds its scopes (`scopes.ModuleIndex`: most
of a module's cost). A process that builds many indexes over the same files paid that again for each: the
language server builds one per edit of a document that a partial run analyses (`reaching.reached` analyses
the document's importers with an index holding its unsaved text), and judging a fix across modules loads
every module importing the mesh (hundreds in a large project): most of each didChange's time.

What is shared is what depends on one module's text alone: its `ast` tree and its `ModuleIndex`, by (absolute
path, SHA-256 of the text, the text itself, its package). Everything that follows names into other modules
(the evaluation of values, the summaries of functions: `module_model.ModuleModel`) is built afresh for each
index, on the shared scopes, so that an index whose overlay holds another text of a module never sees
what another index found through the old one. Neither the tree nor the scopes are changed once built (the
module checked, whose scopes are emptied after its analysis, `ModuleIndex.release`, is never one of these).
"""

from __future__ import annotations

import ast
from collections import OrderedDict

from spmdfix.analysis.index import ProjectLink
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.scopes import ModuleIndex

MAX_KEPT = 2048  # modules kept at most, least recently used dropped first


class ModuleMemo:
    """Trees and scopes of module texts, shared between project indexes: give `parse` and `build` to a
    `ProjectIndex` (`parse=`, `analyse=`). Not thread-safe (nor is a project index)."""

    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        # (path, digest) -> (text, tree, {package: ModuleIndex})
        self._kept: OrderedDict[tuple[str, str], tuple[str, ast.Module, dict[str | None, ModuleIndex]]] = OrderedDict()
        self._by_tree: dict[int, tuple[str, str]] = {}  # id of a kept tree -> its key
        self.parsed = 0  # texts parsed (the measure that a text is parsed once)

    def parse(self, path: str, digest: str, text: str) -> ast.Module:
        """The tree of `text`, the module at `path` whose bytes have the SHA-256 `digest` (`index.Parse`):
        the one kept for the same path, digest and text, else parsed now. Raises what `ast.parse` raises."""
        key = (path, digest)
        kept = self._kept.get(key)
        if kept is not None and kept[0] == text:
            self._kept.move_to_end(key)
            return kept[1]
        tree = ast.parse(text)
        self.parsed += 1
        if kept is not None:
            self._by_tree.pop(id(kept[1]), None)
        self._kept[key] = (text, tree, {})
        self._by_tree[id(tree)] = key
        while len(self._kept) > self.max_kept:
            _, (_, dropped, _) = self._kept.popitem(last=False)
            self._by_tree.pop(id(dropped), None)
        return tree

    def build(self, source: str, tree: ast.Module, path: str, package: str | None, project: ProjectLink) -> ModuleModel:
        """The model of a loaded module (`index.Analyse`): on the scopes kept for `tree` when `parse` gave it
        (built once per package), else built on its own as `ModuleModel.build` does."""
        key = self._by_tree.get(id(tree))
        kept = self._kept.get(key) if key is not None else None
        if kept is None or kept[1] is not tree or key[0] != path:
            return ModuleModel.build(source, tree, path, package, project)
        scopes = kept[2].get(package)
        if scopes is None:
            scopes = kept[2][package] = ModuleIndex(source, tree, path, package)
        return ModuleModel.over(scopes, project)

    def clear(self) -> None:
        """Drop every kept module."""
        self._kept.clear()
        self._by_tree.clear()


MODULES = ModuleMemo()  # this process's memo (the language server's indexes and the partial runs' share it)
