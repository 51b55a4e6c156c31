"""Links to a rule's documentation, as the reports emit them, and the text of the documentation they carry.

A report names a rule's documentation by a link built here from the rule code and one base, the setting
`docs-url` (`--docs-url URL`): `<base>/<CODE>.md`, or the base with `{code}` replaced when it holds one
(`https://example.org/rules/{code}.html`). Without the setting, the base is the `Rules` entry of the
package's `[project.urls]` when it declares one; spmdfix declares none while nothing is published, so by
default:

- JSON (`url`, ruff's field): the path of the rule's documentation in the spmdfix repository,
  `spmdfix/rules/docs/SPMD001.md` (`DEFAULT_DOCS_PATH`), true on any machine, unlike a path into one install;
- SARIF: no `helpUri` (SARIF wants an absolute URI there), but the documentation itself travels in the log:
  each rule's `fullDescription` is its "What it does" section and `help` the whole document, which code
  scanning shows;
- the language server (`codeDescription.href`): the documentation file installed with the package
  (`Rule.url`, a `file://` URI), which the editor on the same machine opens.
"""

from __future__ import annotations

import functools
import re

from spmdfix.rules import RULES

DEFAULT_DOCS_PATH = "spmdfix/rules/docs"  # where the rule docs are in the repository (package data of `spmdfix`)
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")  # a URI scheme: what SARIF's `helpUri` requires


def docs_base(setting: str | None) -> str | None:
    """The base of the rule links: the `docs-url` setting, else the package's `[project.urls]` `Rules`
    entry, else None."""
    if setting:
        return setting
    return project_urls().get("rules")


def rule_url(code: str, base: str | None) -> str:
    """The link to rule `code`'s documentation under `base` (`docs_base`), or its path in the repository
    (`DEFAULT_DOCS_PATH`) without one."""
    if base is None:
        return f"{DEFAULT_DOCS_PATH}/{code}.md"
    if "{code}" in base:
        return base.replace("{code}", code)
    return f"{base.rstrip('/')}/{code}.md"


def is_absolute(url: str) -> bool:
    """Whether `url` starts with a URI scheme (`https:`, `file:`): SARIF's `helpUri` must."""
    return bool(_ABSOLUTE.match(url)) and not re.match(r"[A-Za-z]:[\\/]", url)  # (not a Windows drive)


def editor_url(code: str, base: str | None) -> str | None:
    """The language server's `codeDescription.href`: the rule's link under `base` when it is an absolute
    URI, else the documentation installed with the package (`Rule.url`); None for an unknown code."""
    rule = RULES.get(code)
    if rule is None:
        return None
    if base is not None:
        url = rule_url(code, base)
        if is_absolute(url):
            return url
    return rule.url


@functools.lru_cache(maxsize=None)
def full_description(code: str) -> str:
    """The first section of rule `code`'s documentation ("What it does"), as plain text: SARIF's
    `fullDescription` (the rest is in `help`)."""
    doc = RULES[code].doc()
    sections = re.split(r"^## .*\n", doc, flags=re.M)
    first = sections[1] if len(sections) > 1 else doc
    return first.strip()


def project_urls() -> dict[str, str]:
    """The package's `[project.urls]` (labels lower-cased), from its installed metadata; {} when it has none.
    The base of the rule links (`docs_base`) and SARIF's home page (`formats.sarif`) come from it."""
    import importlib.metadata  # (the package metadata: only when a link is emitted)

    try:
        entries = importlib.metadata.metadata("spmdfix").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    urls = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        if url.strip().startswith(("https://", "http://")):
            urls[label.strip().lower()] = url.strip()
    return urls
