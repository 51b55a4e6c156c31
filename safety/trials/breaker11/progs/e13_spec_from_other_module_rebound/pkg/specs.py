from jax.sharding import PartitionSpec as P

BATCH = P(None, 'x')


def use_batch_axis():
    global BATCH
    BATCH = P('x', None)


use_batch_axis()
