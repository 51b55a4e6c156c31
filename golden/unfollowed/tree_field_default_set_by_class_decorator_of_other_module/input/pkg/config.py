import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

from pkg.utils import override


@dataclasses.dataclass
@override(data_axis='data')
class TrainConfig:
    data_axis: str = 'model'


CFG = TrainConfig()
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
