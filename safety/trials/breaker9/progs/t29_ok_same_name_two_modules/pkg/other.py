def accumulate(fn, xs, spmd_axis_name="model"):
    return fn(xs[0]) if spmd_axis_name else xs
