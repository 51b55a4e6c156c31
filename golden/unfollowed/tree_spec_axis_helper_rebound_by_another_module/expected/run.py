from pkg.model import compute


def main():
    return compute()
