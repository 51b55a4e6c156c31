from pkg.model import main  # noqa: F401 - the oracle calls main()
