import pytest

from pkg import config


@pytest.fixture
def mesh():
    return config.MESH
