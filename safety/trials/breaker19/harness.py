"""Run each breaker19 program every way the brief asks (`safety/trials/breaker_harness.py`, which says how).
Usage: python harness.py [name ...]."""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from breaker_harness import main  # (the breakers' shared harness, beside this directory)

if __name__ == "__main__":
    main(HERE, sys.argv[1:])
