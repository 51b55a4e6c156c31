"""`writes.attribute_write`: which text of an importer may set `.DATA` of a module or object it reads. A
spelling naming another attribute as a literal, or a comment line, writes nothing (newuser11: a test module's
`mock.patch("pkg.train.load")` or a comment saying `setattr` turned a project's findings into SPMD910 records,
exit 0, while JAX raised); every spelling that may name it, or whose target is not read, still counts."""

from __future__ import annotations

import pytest

from spmdfix.analysis.writes import attribute_write, code_lines

MAY_SET = [
    "monkeypatch.setattr(config, 'DATA', 'x')\n",
    "monkeypatch.setattr(config, key, 'x')\n",
    "monkeypatch.setattr('pkg.config.DATA', 'x')\n",
    "object.__setattr__(cfg, 'other', 1)\n",
    "with mock.patch('pkg.config.DATA', 'y'):\n    pass\n",
    "with mock.patch(target):\n    pass\n",
    "patch('pkg.config.' + name)\n",
    "patch(f'pkg.config.{name}')\n",
    "with patch.object(config, 'DATA'):\n    pass\n",
    "patch.object(config, 'DA' + 'TA')\n",
    "with patch.dict('pkg.config.DATA', {}):\n    pass\n",
    "with patch.dict(config.__dict__, {}):\n    pass\n",
    "with patch.multiple(config, DATA='y'):\n    pass\n",
    "print(vars(args))\n",
    "parser.parse_args(namespace=cfg)\n",
    "config.DATA = 'x'  # a comment after code\n",
    "s = '#'; config.DATA = 'x'\n",
]
WRITES_NOTHING = [
    "# no setattr here\nx = 1\n",
    "    # config.DATA = 'x'\n",
    's = """\n# setattr(a, b, c)\n"""\n',
    "monkeypatch.setattr(train, 'load', fake)\n",
    "with mock.patch('pkg.train.load_data'):\n    pass\n",
    "with mock.patch('pkg.train.load_data', new=f):\n    pass\n",
    "with patch.object(train, 'load') as m:\n    pass\n",
    "with patch.dict(os.environ, {'A': '1'}):\n    pass\n",
]


@pytest.mark.parametrize("source", MAY_SET)
def test_a_spelling_that_may_set_the_attribute_counts(source: str) -> None:
    assert attribute_write(source, "DATA") is not None


@pytest.mark.parametrize("source", WRITES_NOTHING)
def test_a_comment_line_or_another_named_attribute_writes_nothing(source: str) -> None:
    assert attribute_write(source, "DATA") is None


def test_comment_lines_are_blanked_in_place() -> None:
    source = "x = 1\n    # config.DATA = 'x'\ny = 2  # kept\n"
    blanked = code_lines(source)
    assert len(blanked) == len(source) and blanked.splitlines()[1].strip() == ""
    assert blanked.count("\n") == source.count("\n") and "# kept" in blanked
