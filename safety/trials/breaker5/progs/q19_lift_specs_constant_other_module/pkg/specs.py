from jax.sharding import PartitionSpec as P

ROW_IN = (P("model"),)
ROW_OUT = P("model")
