import jax
import pytest

from pkg.config import MESH


@pytest.fixture(autouse=True)
def _mesh():
    with jax.set_mesh(MESH):
        yield
