from .config import build_mesh

WIDE = build_mesh(4, 2)
