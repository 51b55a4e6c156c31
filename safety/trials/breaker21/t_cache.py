"""Cache trials: after each edit, a cached `check` (new process) must equal `check --no-cache`.

Each trial makes a tree, warms the cache with every ARGS, applies its edit, waits past stamps.RACY_NS (2.5 s),
then compares cached and fresh runs for each ARGS. Usage: python t_cache.py [trial-name-substring...]"""
import json
import os
import shutil
import sys
import time
from pathlib import Path

import lib

READER = '''
from pkg.config import MESH

print(MESH.devices.shape[0])
'''
NB_READER = json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                                   "source": ["from pkg.config import MESH\n", "n = MESH.devices.shape[0]\n"]}],
                        "metadata": {}, "nbformat": 4, "nbformat_minor": 5})

ARGS = (("pkg/layers.py",), ("pkg/specs.py",), ("run.py",), ("pkg/config.py",), (".",))
MID_ARGS = (("pkg/blocks.py",), ("pkg/model.py",), ("pkg/layers.py",))


def w(root, rel, text, mode=None):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def rm(root, rel):
    p = root / rel
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    else:
        p.unlink()


def same_size_rewrite(root, rel, old, new):
    p = root / rel
    st = p.stat()
    t = p.read_text()
    assert len(old) == len(new)
    p.write_text(t.replace(old, new))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))


TRIALS = {
    # a new module reading MESH.devices: add-axis becomes unsafe (docs/safety.md row 23)
    "c01_new_reader": ({}, lambda r: w(r, "tools/report.py", READER)),
    "c02_new_reader_gitignored": ({".gitignore": "tools/\n"}, lambda r: w(r, "tools/report.py", READER)),
    "c03_new_reader_excluded": ({"pyproject.toml": "[tool.spmdfix]\nextend-exclude = [\"tools\"]\n"},
                                lambda r: w(r, "tools/report.py", READER)),
    "c04_new_reader_notebook": ({}, lambda r: w(r, "report.ipynb", NB_READER)),
    "c05_reader_removed": ({"tools/report.py": READER}, lambda r: rm(r, "tools/report.py")),
    "c06_reader_renamed_to_txt": ({"tools/report.py": READER},
                                  lambda r: os.rename(r / "tools/report.py", r / "tools/report.txt")),
    "c07_reader_from_txt": ({"tools/report.txt": READER},
                            lambda r: os.rename(r / "tools/report.txt", r / "tools/report.py")),
    "c08_dir_renamed_to_excluded": ({"tools/report.py": READER},
                                    lambda r: os.rename(r / "tools", r / ".venv")),
    "c09_dir_renamed_from_excluded": ({".venv/report.py": READER}, lambda r: os.rename(r / ".venv", r / "tools")),
    "c10_same_size_rewrite": ({"tools/report.py": READER.replace("devices", "dev_ids")},
                              lambda r: same_size_rewrite(r, "tools/report.py", "dev_ids", "devices")),
    "c11_chmod000_reader": ({"tools/report.py": READER}, lambda r: os.chmod(r / "tools/report.py", 0)),
    "c12_big_reader": ({"tools/report.py": READER},
                       lambda r: w(r, "tools/report.py", READER + "#" * (11 * 1024 * 1024) + "\n")),
    "c13_big_to_small": ({"tools/report.py": READER + "#" * (11 * 1024 * 1024) + "\n"},
                         lambda r: w(r, "tools/report.py", READER)),
    "c14_file_to_dir": ({"tools/report.py": READER},
                        lambda r: (rm(r, "tools/report.py"), w(r, "tools/report.py/__init__.py", READER))),
    "c15_symlink_retarget": ({"tools/a.txt": READER.replace("devices", "dev_ids"), "tools/b.txt": READER},
                             None),  # set up in prepare
    "c16_init_added_above": ({}, None),  # the tree is made one level down, see prepare
    "c17_pyproject_in_pkg": ({}, lambda r: w(r, "pkg/pyproject.toml", "[project]\nname='pkg'\n")),
    "c18_pkg_init_removed": ({}, lambda r: rm(r, "pkg/__init__.py")),
    "c19_reader_in_pkg": ({}, lambda r: w(r, "pkg/report.py", READER.replace("pkg.config", ".config"))),
    "c20_new_importer_of_layers": ({}, lambda r: w(r, "run2.py", lib.BASE["run.py"].replace(
        "spmd_axis_name=DATA", "spmd_axis_name='model'"))),
    "c21_specs_edit": ({}, lambda r: w(r, "pkg/specs.py", lib.BASE["pkg/specs.py"].replace("P(DATA, MODEL)", "P(None, MODEL)"))),
    "c22_config_edit": ({}, lambda r: w(r, "pkg/config.py", lib.BASE["pkg/config.py"] + "N = MESH.devices.shape[0]\n")),
    "c23_run_edit": ({}, lambda r: w(r, "run.py", lib.BASE["run.py"].replace("spmd_axis_name=DATA", "spmd_axis_name='model'"))),
    "c24_gitignore_removed": ({".gitignore": "tools/\n", "tools/report.py": READER}, lambda r: rm(r, ".gitignore")),
    "c25_reader_via_init_reexport": ({}, lambda r: (w(r, "pkg/__init__.py", "from pkg.config import MESH\n"),
                                                    w(r, "tools/report.py", "from pkg import MESH\nprint(MESH.devices.shape[0])\n"))),
    "c26_dir_symlink_added": ({"../b21_ext_c26/report.py": None}, None),
    # the chain through intermediate modules (t_chain.MID): an edit of blocks.py cuts it
    "c27_mid_blocks_edit": ("MID", lambda r: w(r, "pkg/blocks.py", "from pkg.layers import residual\n\n\ndef block(x):\n    return x * 2.0\n")),
    "c28_mid_new_reader": ("MID", lambda r: w(r, "tools/report.py", READER)),
}


def prepare(name, files):
    if name == "c16_init_added_above":
        outer = lib.OUT / name
        if outer.exists():
            shutil.rmtree(outer)
        root = lib.make(name + "/proj", files)
        return root, lambda r: w(r.parent, "__init__.py", "")
    if name == "c15_symlink_retarget":
        root = lib.make(name, files)
        os.symlink("a.txt", root / "tools/report.py")
        lib.settle(root)
        return root, lambda r: (os.unlink(r / "tools/report.py"), os.symlink("b.txt", r / "tools/report.py"))
    if name == "c26_dir_symlink_added":
        ext = lib.OUT / "c26_ext"
        if ext.exists():
            shutil.rmtree(ext)
        ext.mkdir(parents=True)
        (ext / "report.py").write_text(READER)
        lib.settle(ext)
        root = lib.make(name, {})
        return root, lambda r: os.symlink(ext, r / "tools")
    if files == "MID":
        import t_chain
        return lib.make(name, t_chain.MID), TRIALS[name][1]
    return lib.make(name, files), TRIALS[name][1]


def main(wanted):
    broke = tried = 0
    for name, (files, _) in TRIALS.items():
        if wanted and not any(x in name for x in wanted):
            continue
        root, edit = prepare(name, files if isinstance(files, str) else {k: v for k, v in files.items() if v is not None})
        each = MID_ARGS if files == "MID" else ARGS
        for args in each:
            lib.concise(root, *args)
        edit(root)
        time.sleep(2.5)
        for args in each:
            tried += 1
            ok, how = lib.cached_vs_fresh(root, *args)
            if not ok:
                broke += 1
                print(f"BROKE {name} {args}\n{how}\n")
        print(f"{name}: done", flush=True)
    print(f"tried {tried}, broke {broke}")


if __name__ == "__main__":
    main(sys.argv[1:])
