ACT_SPEC = ("data", None)
