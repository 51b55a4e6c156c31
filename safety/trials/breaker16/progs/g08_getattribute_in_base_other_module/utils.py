from jax import lax


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Base:
    def __getattribute__(self, name):
        if name == 'scale':
            return _cond
        return object.__getattribute__(self, name)
