"""A small model-like program that JAX rejects.

Each example is a sequence of tokens. A tensor-parallel MLP block splits the hidden units over 'model' and the
tokens over 'data'; a mean-pooling step splits the tokens over both axes and sums them with a psum. The whole
forward pass is vmapped over examples with spmd_axis_name='data', and it reaches both shard_maps through helper
calls (forward -> encode -> mlp -> _mlp_block, and encode -> _mean_pool), so JAX raises

    ValueError: vmap spmd_axis_name cannot appear in shard_map in_specs

Two distinct collisions: the P('data', None) spec of _mlp_block and the tuple spec P(('data', 'model'), None) of
_mean_pool. The psum over 'data' in _mean_pool means the specs cannot simply be stripped.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

SEQ, D_MODEL, D_HIDDEN = 16, 8, 16

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


@partial(
    jax.shard_map,
    mesh=mesh,
    in_specs=(P('data', None), P(None, 'model'), P('model'), P('model', None)),
    out_specs=P('data', None),
)
def _mlp_block(x, w_in, b_in, w_out):
    h = jax.nn.relu(x @ w_in + b_in)
    return jax.lax.psum(h @ w_out, 'model')


@partial(jax.shard_map, mesh=mesh, in_specs=P(('data', 'model'), None), out_specs=P())
def _mean_pool(x):
    return jax.lax.psum(x.sum(axis=0), ('data', 'model')) / SEQ


def init_params():
    """Small multiples of 1/4 and 1/8 so that every sum is exact in float32."""
    w_in = (np.arange(D_MODEL * D_HIDDEN) % 5 - 2).reshape(D_MODEL, D_HIDDEN) / 4
    b_in = (np.arange(D_HIDDEN) % 3 - 1) / 2
    w_out = (np.arange(D_HIDDEN * D_MODEL) % 7 - 3).reshape(D_HIDDEN, D_MODEL) / 8
    return {
        'w_in': jnp.asarray(w_in, jnp.float32),
        'b_in': jnp.asarray(b_in, jnp.float32),
        'w_out': jnp.asarray(w_out, jnp.float32),
    }


@jax.jit
def mlp(params, x):
    return x + _mlp_block(x, params['w_in'], params['b_in'], params['w_out'])


def encode(params, tokens):
    return _mean_pool(mlp(params, tokens))


def forward(params, tokens):
    return jnp.tanh(encode(params, tokens))


def batched_forward(params, batch):
    return jax.vmap(forward, in_axes=(None, 0), spmd_axis_name='data')(params, batch)


def reference_forward(params, tokens):
    """The same computation without any sharding."""
    h = tokens + jax.nn.relu(tokens @ params['w_in'] + params['b_in']) @ params['w_out']
    return jnp.tanh(h.mean(axis=0))


def main():
    params = init_params()
    batch = jnp.asarray((np.arange(4 * SEQ * D_MODEL) % 11 - 5).reshape(4, SEQ, D_MODEL) / 4, jnp.float32)
    result = batched_forward(params, batch)
    reference = jax.vmap(reference_forward, in_axes=(None, 0))(params, batch)
    return result, reference


if __name__ == "__main__":
    # Needs 8 devices: XLA_FLAGS=--xla_force_host_platform_device_count=8 python examples/model.py
    out, expected = main()
    print("values match:", np.allclose(out, expected, atol=1e-5))
