import sys
import pytest
from pkg.train import main

main()
rc = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests"])
print("RESULT:", "match" if rc == 0 else "mismatch (tests failed)")
