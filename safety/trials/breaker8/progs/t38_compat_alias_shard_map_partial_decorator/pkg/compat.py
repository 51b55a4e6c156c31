import jax

shard_map = jax.shard_map
