from pkg.model import main as model_main


def main():
    return model_main()
