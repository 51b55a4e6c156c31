def main():
    """The program is run by pytest (`pytest tests`: tests/conftest.py registers the hooks), not from here."""
    raise SystemExit("run `pytest tests`")
