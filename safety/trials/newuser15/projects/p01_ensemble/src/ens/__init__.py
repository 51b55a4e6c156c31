"""Ensemble training, migrated from pmap/pjit to vmap + shard_map."""
