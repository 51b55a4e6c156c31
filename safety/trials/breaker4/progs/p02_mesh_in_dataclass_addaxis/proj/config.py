import dataclasses
import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass
class RunConfig:
    mesh: Mesh
    per_device_batch: int = 1


MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
CFG = RunConfig(mesh=MESH)
