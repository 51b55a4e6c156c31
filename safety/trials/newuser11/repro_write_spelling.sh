#!/bin/sh
# Repro: a comment holding the word `setattr` in a test module that imports the package turns p5's 2 findings
# (exit 1) into 0 findings and an SPMD910 record (exit 0). Usage: SPMDFIX_SRC=/path/to/spmdfix-checkout repro_write_spelling.sh

here=$(cd "$(dirname "$0")" && pwd)
"$here/setup.sh" p5 /tmp/nu11-repro >/dev/null
cd /tmp/nu11-repro/p5
export PYTHONPATH="${SPMDFIX_SRC:-/work/main}"
echo "== before"; python -m spmdfix.cli check --no-cache -q --output-format concise; echo "exit $?"
mkdir -p tests
printf 'from pa import train\n\n\ndef test_main():\n    # no setattr here\n    assert train.main().shape == (8, 4, 16)\n' > tests/test_train.py
echo "== after adding tests/test_train.py (a comment says 'setattr')"
python -m spmdfix.cli check --no-cache --show-unresolved --output-format concise; echo "exit $?"
