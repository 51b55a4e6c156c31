import jax.numpy as jnp
import numpy as np

from pkg import evaluate, exported, ordered, reexported, train


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    got = (
        train.step(xs), train.step_twice(xs), evaluate.evaluate(xs), exported.exported(xs),
        reexported.reexported(xs), ordered.ordered(xs),
    )
    twice = np.asarray(xs) * 2.0
    return got, (twice, twice * 2.0, twice * 2.0, twice, twice, twice)
