"""One place for the JAX names whose home moved between releases."""
from jax import shard_map  # noqa: F401
