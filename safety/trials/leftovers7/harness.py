"""Run each leftovers7 program: JAX truth, spmdfix check, spmdfix fix (safe, then --unsafe-fixes) on copies, JAX on each.

The shared harness of the trials (`safety/trials/harness.py`, which says what a program holds and the
environment variables it reads) over this directory. Usage: python harness.py [name ...]
"""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from harness import main  # (the trials' shared harness, beside this directory)

if __name__ == "__main__":
    main(HERE, sys.argv[1:])
