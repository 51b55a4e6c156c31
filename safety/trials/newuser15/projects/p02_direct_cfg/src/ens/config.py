"""Parallelism configuration: one frozen dataclass, one instance."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    data: str = 'data'
    model: str = 'model'
    mesh_shape: tuple = (2, 4)


CFG = ParallelConfig()
