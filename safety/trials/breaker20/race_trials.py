"""breaker20: a module edited between the analysis and the write of a cross-module fix (an editor saving it
meanwhile). Runs `spmdfix fix ARGS` in this process with `runner.cross_module_fixes` wrapped so that, once
the fixes are computed, FILE gets TEXT appended; then prints the tree. Nothing of the fix may be written
(all or none), FILE keeps the editor's bytes, and the run must say which file held the fix back.

Usage: SPMDFIX_SRC=<checkout> python race_trials.py DIR FILE [fix args ...]"""
import os
import pathlib
import sys

sys.path.insert(0, os.environ.get("SPMDFIX_SRC", str(pathlib.Path(__file__).resolve().parents[3])))


def main(d, victim, args):
    os.chdir(d)
    import spmdfix.cli.crossmodule as cm
    from click.testing import CliRunner
    from spmdfix.cli import main as cli

    original = cm.cross_module_fixes

    def wrapped(*a, **k):
        out = original(*a, **k)
        p = pathlib.Path(victim)
        p.write_bytes(p.read_bytes() + b"# saved by the editor\n")
        return out

    cm.cross_module_fixes = wrapped
    r = CliRunner().invoke(cli, ["fix", "--no-cache", "-j", "1", *args])
    print("exit", r.exit_code)
    print(r.output)
    for p in sorted(pathlib.Path(".").rglob("*.py")):
        print("==", p)
        print(p.read_text())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
