"""Condense a harness log (python harness.py > LOG) into one line a program: its name, the fixes run with what
JAX did on each fixed copy (errors cut to their first words), and the flags. Usage: python summarize.py LOG."""
import re
import sys


def main(path):
    text = open(path).read()
    for block in re.split(r"^== ", text, flags=re.M)[1:]:
        name = block.splitlines()[0].strip()
        fixes = re.search(r"^  fixes: (.*)$", block, re.M)
        flags = re.search(r"^  FLAGS: (.*)$", block, re.M)
        shown = re.sub(r"FAIL: ValueError: (pvary is a invariant->variant collective)[^;]*", r"FAIL: \1", fixes.group(1)) if fixes else "(checks only)"
        print(f"{name}: {shown} || {flags.group(1) if flags else '-'}")


if __name__ == "__main__":
    main(sys.argv[1])
