"""p1: an MLP with shard_map layers."""
