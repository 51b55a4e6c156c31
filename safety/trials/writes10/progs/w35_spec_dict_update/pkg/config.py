import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

from jax.sharding import PartitionSpec as P

SPECS = {"act": P("model")}
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
