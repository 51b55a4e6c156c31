import sys

import pytest

rc = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "tests"])
print("RESULT:", "match" if rc == 0 else f"mismatch (pytest rc={rc})")
