"""Write the writes10 programs (progs/<name>/): each a small package whose axis name, mesh or spec entry is
written in a spelling other than a plain assignment. `python gen.py` rewrites progs/ from the table below;
the programs are kept too (the harness reads progs/)."""
import pathlib
import shutil
import textwrap

HERE = pathlib.Path(__file__).resolve().parent

MESH = 'MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))\n'
HEAD = "import dataclasses\n\nimport jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"

# config.py: a dataclass instance CFG whose field is the spec's axis
def cfg_dataclass(default, extra_cls="", extra_mod=""):
    return (HEAD + f"\n@dataclasses.dataclass\nclass TrainConfig:\n    data_axis: str = \"{default}\"\n{extra_cls}\n\n"
            f"CFG = TrainConfig()\n{MESH}{extra_mod}")

MODEL_CFG = textwrap.dedent('''\
    import jax
    from jax.sharding import PartitionSpec as P

    from pkg.config import CFG, MESH


    def block(x):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(CFG.data_axis), out_specs=P(CFG.data_axis))(x)
    ''')

MODEL_MODCONST = textwrap.dedent('''\
    import jax
    from jax.sharding import PartitionSpec as P

    from pkg import config


    def block(x):
        return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=P(config.DATA), out_specs=P(config.DATA))(x)
    ''')


def train(write="", imports="", vmap_axis='"data"', fn="block"):
    return (f"import jax\nimport jax.numpy as jnp\nimport numpy as np\n{imports}\nfrom pkg.model import block\n\n"
            f"{write}\n\ndef main():\n    xs = jnp.arange(32.0).reshape(4, 8)\n"
            f"    out = jax.vmap({fn}, spmd_axis_name={vmap_axis})(xs)\n"
            '    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")\n')


MAIN = "from pkg.train import main\n\nmain()\n"

P = {}  # name -> {relative path: text}


def pkg(name, config, model=MODEL_CFG, train_text=None, **more):
    files = {"pkg/__init__.py": "", "pkg/config.py": config, "pkg/model.py": model,
             "pkg/train.py": train_text, "main.py": MAIN}
    files.update({k.replace("__", "/").replace("_py", ".py"): v for k, v in more.items()})
    P[name] = files


pkg("w00a_control_runs", cfg_dataclass("model"), train_text=train())
pkg("w00b_control_fails", cfg_dataclass("data"), train_text=train())
# --- instance fields written in other spellings (default 'model' runs; written 'data' collides) ------------
W = "from pkg.config import CFG\n"
pkg("w01_vars_item", cfg_dataclass("model"), train_text=train('vars(CFG)["data_axis"] = "data"', W))
pkg("w02_dunder_dict_item", cfg_dataclass("model"), train_text=train('CFG.__dict__["data_axis"] = "data"', W))
pkg("w03_dunder_dict_update", cfg_dataclass("model"), train_text=train('CFG.__dict__.update(data_axis="data")', W))
pkg("w04_vars_update_runs", cfg_dataclass("data"), train_text=train('vars(CFG).update({"data_axis": "model"})', W))
pkg("w05_object_setattr_outside", cfg_dataclass("model"),
    train_text=train('object.__setattr__(CFG, "data_axis", "data")', W))
pkg("w06_setattr_alias", cfg_dataclass("model"), train_text=train('set_ = setattr\nset_(CFG, "data_axis", "data")', W))
pkg("w07_overrides_loop", cfg_dataclass("model"),
    train_text=train('OVERRIDES = {"data_axis": "data"}\nfor k, v in OVERRIDES.items():\n    setattr(CFG, k, v)', W))
pkg("w08_helper_module_writes", cfg_dataclass("model"),
    train_text=train("tweak(CFG)", W + "from pkg.helpers import tweak\n"),
    pkg__helpers_py='def tweak(cfg):\n    cfg.data_axis = "data"\n')
pkg("w09_helper_module_setattr", cfg_dataclass("model"),
    train_text=train('tweak(CFG, "data_axis", "data")', W + "from pkg.helpers import tweak\n"),
    pkg__helpers_py='def tweak(obj, key, value):\n    setattr(obj, key, value)\n')
pkg("w10_argparse_namespace", cfg_dataclass("model"),
    train_text=train('_parser = argparse.ArgumentParser()\n_parser.add_argument("--data_axis", default="data")\n'
                     '_parser.parse_args(["--data_axis", "data"], namespace=CFG)', "import argparse\n" + W))
pkg("w11_mock_patch_object", cfg_dataclass("model"),
    train_text=train("", "from unittest import mock\n" + W).replace(
        "    out = jax.vmap", '    with mock.patch.object(CFG, "data_axis", "data"):\n        out = jax.vmap').replace(
        "    print(", "    print(", 1))
pkg("w12_post_init_dunder_dict", cfg_dataclass("model", '\n    def __post_init__(self):\n        self.__dict__["data_axis"] = "data"\n'),
    train_text=train())
pkg("w13_property_same_name", HEAD + '\nclass TrainConfig:\n    data_axis = "model"\n\n    @property\n    def data_axis(self):\n        return "data"\n\n\nCFG = TrainConfig()\n' + MESH,
    train_text=train())
pkg("w14_getattribute", HEAD + '\nclass TrainConfig:\n    data_axis = "model"\n\n    def __getattribute__(self, name):\n        return "data"\n\n\nCFG = TrainConfig()\n' + MESH,
    train_text=train())
pkg("w15_class_decorator_other_module", HEAD + "from pkg.utils import override\n\n\n@dataclasses.dataclass\n@override(data_axis=\"data\")\nclass TrainConfig:\n    data_axis: str = \"model\"\n\n\nCFG = TrainConfig()\n" + MESH,
    train_text=train(),
    pkg__utils_py="def override(**values):\n    def deco(cls):\n        for k, v in values.items():\n            setattr(cls, k, v)\n        return cls\n\n    return deco\n")
pkg("w16_copy_then_vars", cfg_dataclass("model"),
    model=MODEL_CFG.replace("from pkg.config import CFG, MESH", "from pkg.config import CFG, MESH\nimport copy\n\nLOCAL = copy.copy(CFG)\nvars(LOCAL)[\"data_axis\"] = \"data\"").replace("CFG.data_axis", "LOCAL.data_axis"),
    train_text=train())
pkg("w17_module_rebinds_cfg_replace", cfg_dataclass("model"),
    model=MODEL_CFG.replace("from pkg.config import CFG, MESH", "from pkg import config\nfrom pkg.config import MESH").replace("CFG.data_axis", "config.CFG.data_axis"),
    train_text=train('config.CFG = dataclasses.replace(config.CFG, data_axis="data")', "import dataclasses\n\nfrom pkg import config\n"))
pkg("w18_partial_class", HEAD + "import functools\n\n\n@dataclasses.dataclass\nclass TrainConfig:\n    data_axis: str = \"model\"\n\n\nCFG = functools.partial(TrainConfig, data_axis=\"data\")()\n" + MESH,
    train_text=train())
pkg("w19_subclass_init_other_module", HEAD + "from pkg.base import Base\n\n\nclass TrainConfig(Base):\n    def __init__(self):\n        super().__init__(data_axis=\"data\")\n\n\nCFG = TrainConfig()\n" + MESH,
    train_text=train(),
    pkg__base_py="import dataclasses\n\n\n@dataclasses.dataclass\nclass Base:\n    data_axis: str = \"model\"\n")
# --- class attributes read through the class ---------------------------------------------------------------
CLS = HEAD + '\nclass Axes:\n    DATA = "model"\n\n\n' + MESH
MODEL_CLS = MODEL_CFG.replace("import CFG, MESH", "import MESH, Axes").replace("CFG.data_axis", "Axes.DATA")
pkg("w20_class_attr_rebound_other_module", CLS, model=MODEL_CLS,
    train_text=train('Axes.DATA = "data"', "from pkg.config import Axes\n"))
pkg("w21_class_attr_setattr_other_module", CLS, model=MODEL_CLS,
    train_text=train('setattr(Axes, "DATA", "data")', "from pkg.config import Axes\n"))
pkg("w22_instance_class_rebound", HEAD + '\nclass TrainConfig:\n    data_axis = "model"\n\n\nCFG = TrainConfig()\n' + MESH,
    train_text=train('CFG.__class__.data_axis = "data"', W))
pkg("w23_class_attr_mock_patch", CLS, model=MODEL_CLS,
    train_text=train("", "from unittest import mock\n\nfrom pkg.config import Axes\n").replace(
        "    out = jax.vmap", '    with mock.patch.object(Axes, "DATA", "data"):\n        out = jax.vmap'))
# --- module constants ----------------------------------------------------------------------------------------
MODCONST = HEAD + 'DATA = "model"\n' + MESH
pkg("w24_module_attr_rebound", MODCONST, model=MODEL_MODCONST,
    train_text=train('config.DATA = "data"', "from pkg import config\n"))
pkg("w25_module_setattr", MODCONST, model=MODEL_MODCONST,
    train_text=train('setattr(config, "DATA", "data")', "from pkg import config\n"))
pkg("w26_module_vars_item", MODCONST, model=MODEL_MODCONST,
    train_text=train('vars(config)["DATA"] = "data"', "from pkg import config\n"))
pkg("w27_globals_item_in_config", MODCONST + 'globals()["DATA"] = "data"\n', model=MODEL_MODCONST, train_text=train())
pkg("w28_sys_modules_write", MODCONST, model=MODEL_MODCONST,
    train_text=train('sys.modules["pkg.config"].DATA = "data"', "import sys\n"))
pkg("w29_global_in_setter", MODCONST + '\n\ndef set_axis(value):\n    global DATA\n    DATA = value\n', model=MODEL_MODCONST,
    train_text=train('config.set_axis("data")', "from pkg import config\n"))
pkg("w30_mock_patch_module", MODCONST, model=MODEL_MODCONST,
    train_text=train("", "from unittest import mock\n").replace(
        "    out = jax.vmap", '    with mock.patch("pkg.config.DATA", "data"):\n        out = jax.vmap'))
pkg("w31_from_import_after_write", MODCONST,
    model=MODEL_MODCONST.replace("from pkg import config", "from pkg.config import DATA, MESH").replace("config.MESH", "MESH").replace("config.DATA", "DATA"),
    train_text=train("", "from pkg import config\n\nconfig.DATA = \"data\"\n"))
pkg("w32_module_dict_update", MODCONST, model=MODEL_MODCONST,
    train_text=train('config.__dict__.update(DATA="data")', "from pkg import config\n"))
pkg("w33_reload_after_env", HEAD + 'import os\n\nDATA = "model"\nif os.environ.get("W33_RELOADED"):\n    globals().update(DATA="data")\n' + MESH,
    model=MODEL_MODCONST,
    train_text=train('os.environ["W33_RELOADED"] = "1"\nimportlib.reload(config)', "import importlib\nimport os\n\nfrom pkg import config\n"))
# --- spec entries and mesh names held in containers ---------------------------------------------------------
SPECS = HEAD + 'from jax.sharding import PartitionSpec as P\n\nSPECS = {"act": P("model")}\n' + MESH
MODEL_SPECS = MODEL_MODCONST.replace("in_specs=P(config.DATA), out_specs=P(config.DATA)", 'in_specs=config.SPECS["act"], out_specs=config.SPECS["act"]')
pkg("w34_spec_dict_item_written", SPECS, model=MODEL_SPECS,
    train_text=train('config.SPECS["act"] = P("data")', "from jax.sharding import PartitionSpec as P\n\nfrom pkg import config\n"))
pkg("w35_spec_dict_update", SPECS, model=MODEL_SPECS,
    train_text=train('config.SPECS.update(act=P("data"))', "from jax.sharding import PartitionSpec as P\n\nfrom pkg import config\n"))
AXLIST = HEAD + 'AXES = ["model"]\n' + MESH
pkg("w36_axis_list_item_written", AXLIST,
    model=MODEL_MODCONST.replace("P(config.DATA)", "P(config.AXES[0])"),
    train_text=train('config.AXES[0] = "data"', "from pkg import config\n"))
pkg("w37_mesh_names_rebound", HEAD + 'NAMES = ("data", "model")\n\n\ndef make_mesh():\n    return Mesh(np.array(jax.devices()).reshape(2, 4), NAMES)\n',
    model=MODEL_MODCONST.replace("mesh=config.MESH", "mesh=config.make_mesh()").replace("P(config.DATA)", 'P("data")'),
    train_text=train('config.NAMES = ("data", "other")', "from pkg import config\n"))
pkg("w38_vmap_axis_field_vars", cfg_dataclass("model"),
    model=MODEL_CFG.replace("P(CFG.data_axis)", 'P("data")'),
    train_text=train('vars(CFG)["data_axis"] = "data"', W, vmap_axis="CFG.data_axis"))
pkg("w39_runs_default_data_written_model", cfg_dataclass("data"), train_text=train('CFG.__dict__["data_axis"] = "model"', W))
pkg("w40_runs_module_const_rebound", HEAD + 'DATA = "data"\n' + MESH, model=MODEL_MODCONST,
    train_text=train('config.DATA = "model"', "from pkg import config\n"))

# --- the module checked holds the value, another module writes it -------------------------------------------
MODEL_OWN = """import dataclasses

import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH

DATA = "model"


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = "model"


CFG = TrainConfig()


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(SPEC), out_specs=P(SPEC))(x)
"""
pkg("w41_own_constant_written_by_importer", HEAD + MESH, model=MODEL_OWN.replace("SPEC", "DATA"),
    train_text=train('model.DATA = "data"', "from pkg import model\n"))
pkg("w42_own_instance_field_assigned_by_importer", HEAD + MESH, model=MODEL_OWN.replace("SPEC", "CFG.data_axis"),
    train_text=train('model.CFG.data_axis = "data"', "from pkg import model\n"))
pkg("w43_own_instance_field_vars_by_importer", HEAD + MESH, model=MODEL_OWN.replace("SPEC", "CFG.data_axis"),
    train_text=train('vars(model.CFG)["data_axis"] = "data"', "from pkg import model\n"))
# --- one module ----------------------------------------------------------------------------------------------
ONE = """import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
DATA = "model"


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = "model"


CFG = TrainConfig()
WRITE


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(SPEC), out_specs=P(SPEC))(x)


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")


if __name__ == "__main__":
    main()
"""
def one(name, write, spec):
    P[name] = {"main.py": ONE.replace("WRITE", write).replace("SPEC", spec)}
one("w44_one_module_vars_item", 'vars(CFG)["data_axis"] = "data"', "CFG.data_axis")
one("w45_one_module_globals_item", 'globals()["DATA"] = "data"', "DATA")
one("w46_one_module_global_in_setter", 'def set_axis(value):\n    global DATA\n    DATA = value\n\n\nset_axis("data")', "DATA")
one("w47_one_module_dict_update", 'CFG.__dict__.update(data_axis="data")', "CFG.data_axis")

# --- `self.AXIS` of a class whose attribute is written in another spelling ----------------------------------
MODEL_SELF = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Layer:
    AXIS = "model"
INIT
    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


LAYER = Layer()


def block(x):
    return LAYER(x)
"""
pkg("w48_self_attr_setattr_by_importer", HEAD + MESH, model=MODEL_SELF.replace("INIT", ""),
    train_text=train('setattr(Layer, "AXIS", "data")', "from pkg.model import LAYER, Layer\n", fn="LAYER"))
pkg("w49_self_attr_vars_instance_by_importer", HEAD + MESH, model=MODEL_SELF.replace("INIT", ""),
    train_text=train('vars(LAYER)["AXIS"] = "data"', "from pkg.model import LAYER\n", fn="LAYER"))
pkg("w50_self_attr_dunder_dict_in_init", HEAD + MESH,
    model=MODEL_SELF.replace("INIT", '\n    def __init__(self):\n        self.__dict__["AXIS"] = "data"\n'),
    train_text=train("", "from pkg.model import LAYER\n", fn="LAYER"))




def main():
    progs = HERE / "progs"
    shutil.rmtree(progs, ignore_errors=True)
    for name, files in P.items():
        for rel, text in files.items():
            f = progs / name / rel
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text)
        (progs / name / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "0"\n')
    print(len(P), "programs")


if __name__ == "__main__":
    main()
