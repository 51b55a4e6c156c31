from .config import DATA, MESH
