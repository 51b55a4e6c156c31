from .config import MESH
