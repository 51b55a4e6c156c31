from pkg.bodies import body


def plain(x):
    return body(x)
