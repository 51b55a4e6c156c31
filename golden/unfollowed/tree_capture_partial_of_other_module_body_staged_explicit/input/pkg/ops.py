def body(b, s):
    return b * s
