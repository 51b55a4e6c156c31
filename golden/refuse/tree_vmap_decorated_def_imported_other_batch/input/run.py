from pkg.evaluate import main as evaluate_main
from pkg.model import main as model_main


def main():
    result, reference = model_main()
    other, other_reference = evaluate_main()
    return (result, other), (reference, other_reference)
