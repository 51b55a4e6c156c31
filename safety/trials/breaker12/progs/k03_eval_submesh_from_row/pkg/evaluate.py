from jax.sharding import Mesh

from pkg.config import MESH

ROW = Mesh(MESH.devices[0], ('y',))
