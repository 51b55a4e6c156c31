"""Another module applying pkg/model.py's vmapped `batched` to its own batch (not run by the oracle)."""
from pkg.model import batched


def serve(xs):
    return batched(xs)


