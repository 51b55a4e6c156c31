HOOKS = []


def register(fn):
    HOOKS.append(fn)
    return fn
