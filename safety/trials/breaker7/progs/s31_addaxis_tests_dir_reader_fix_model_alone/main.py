from pkg.train import main
from tests.test_mesh import per_replica

main()
print("RESULT:", "match" if per_replica(16) == 8 else "mismatch (tests)")
