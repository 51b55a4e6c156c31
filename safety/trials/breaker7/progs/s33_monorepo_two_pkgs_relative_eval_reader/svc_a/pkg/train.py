from .config import MESH


def main():
    print("svc_a", MESH.shape)
