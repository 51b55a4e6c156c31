from pkg.model import forward, reference


def main():
    return forward(), reference()
