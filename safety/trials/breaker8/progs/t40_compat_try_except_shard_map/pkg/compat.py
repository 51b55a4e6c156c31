try:
    from jax import shard_map
except ImportError:  # jax < 0.7
    from jax.experimental.shard_map import shard_map
