import pkg.hooks  # noqa: F401  (registers the hooks)
