from jax.sharding import PartitionSpec as P


def rows(axis):
    spec = P(axis)
    return spec


# Another call of the helper, with another axis: it does not decide what `rows('data')` gives.
MODEL_ROWS = rows('model')
