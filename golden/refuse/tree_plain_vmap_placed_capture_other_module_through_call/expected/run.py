from pkg.m import main  # noqa: F401 - the oracle calls main()
