import pytest

from pkg.config import DATA


@pytest.fixture
def batch_axis():
    return DATA
