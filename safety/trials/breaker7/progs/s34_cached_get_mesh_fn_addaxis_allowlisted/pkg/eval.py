from pkg.config import get_mesh


def eval_rows():
    return 4 * get_mesh().shape["data"]
