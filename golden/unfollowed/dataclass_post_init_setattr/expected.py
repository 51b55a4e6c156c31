"""New-user trial newuser8: a frozen dataclass whose `__post_init__` sets its field with `object.__setattr__`
(the usual way a frozen dataclass derives a field): `cfg.batch_axis` is 'y' at run time, not the field's
default 'x'. The vmap over 'y' reaches a shard_map whose specs name only 'x': JAX runs it and it matches. Read
as the default, it was an SPMD001/SPMD002 at P('x') (a false positive, with a fix applied); now the field is
not read and an SPMD910 record names it."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@dataclasses.dataclass(frozen=True)
class Config:
    batch_axis: str = 'x'
    use_model_axis: bool = True

    def __post_init__(self):
        if self.use_model_axis:
            object.__setattr__(self, 'batch_axis', 'y')


cfg = Config()


def layer(x):
    return jax.shard_map(lambda v: v * 0.5, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(layer, spmd_axis_name=cfg.batch_axis)(xs), np.asarray(xs) * 0.5
