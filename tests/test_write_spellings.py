"""`writes.attribute_write`: which text of an importer may set `.DATA` of a module or object it reads. A
spelling naming another attribute as a literal, or a comment line, writes nothing (newuser11: a test module's
`mock.patch("pkg.train.load")`, a comment saying `setattr` or a launcher's `print(vars(args))` turned a project's findings into SPMD910 records,
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
    "parser.parse_args(namespace=cfg)\n",
    "config.DATA = 'x'  # a comment after code\n",
    "s = '#'; config.DATA = 'x'\n",
    # `vars(...)`: every use but the reads `writes._vars_may_write` lists
    "vars(config)['DATA'] = 'x'\n",
    "d = vars(config)\nd['DATA'] = 'x'\n",
    "vars(config).update(DATA='x')\n",
    "f(vars(config))\n",
    "wandb.init(config=vars(args))\n",
    "Config(**vars(args))\n",
    "for k, v in vars(config).items():\n    pass\n",
    "vars(config).get('SPECS')['act'] = 1\n",
    "vars()['DATA'] = 'x'\n",
    "print(vars(config)['DATA'])\n",
    "print('args', vars(args))\n",
    "def print(d):\n    d['DATA'] = 'x'\nprint(vars(config))\n",
    "def show(print):\n    print(vars(config))\n",
    "from tools import print\nprint(vars(config))\n",
    "from tools import *\nprint(vars(config))\n",
    "import tools as pprint\npprint.pprint(vars(config))\n",
    "print(vars(config, 'DATA'\n",
    # `obj.__dict__`: the same reads only
    "config.__dict__['DATA'] = 'x'\n",
    "config.__dict__.update(DATA='x')\n",
    "d = config.__dict__\n",
    "self.__dict__.update(kwargs)\n",
    "print(make().__dict__)\n",
    "with patch.dict(config.__dict__, {}):\n    pass\n",
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
    # `vars(...)` whose dict is only read (a launcher printing its arguments)
    "print(vars(args))\n",
    "print(vars(args), file=sys.stderr)\n",
    "print(sorted(vars(args)))\n",
    "import pprint\npprint.pprint(vars(args))\n",
    "for key in vars(args):\n    pass\n",
    "names = [k for k in vars(args).keys()]\n",
    "if 'DATA' in vars(config):\n    pass\n",
    "print(args.__dict__)\n",
    "print(sorted(cfg.__dict__), file=sys.stderr)\n",
    "for key in cfg.__dict__.keys():\n    pass\n",
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
