ACT_SPEC = ('x', None)
