import jax

from .layers import assigned, decorated, in_lambda


def forward(xs):
    return jax.vmap(lambda x: assigned(x, 'data') + decorated(x, 'data') + in_lambda(x, 'data'), spmd_axis_name='data')(xs)


def forward_model(xs):
    return jax.vmap(lambda x: assigned(x, 'model') + decorated(x, 'model') + in_lambda(x, 'model'), spmd_axis_name='data')(xs)
