from pkg.train import main  # noqa: F401 - the oracle calls main()
