"""chainer-rl's tests run on every installed device where a test takes the
``device`` fixture."""
import pytest

import chainer_core


@pytest.fixture(params=chainer_core.backend.available_devices(), ids=str)
def device(request):
    """Each device of the installed backends, in turn."""
    return request.param
