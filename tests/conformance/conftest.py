"""The ``device`` fixture: one parameter per discovered device (ids such as
``@numpy``), and a skipped one per backend that is installed but unusable
here, so that the report says why it was not tested."""
import pytest

from .devices import discover


def _params():
    params = []
    for backend, devices, reason in discover():
        if not devices:
            params.append(pytest.param(
                None, id=backend.name,
                marks=pytest.mark.skip(reason='backend {!r}: {}'.format(
                    backend.name, reason))))
        for device in devices:
            params.append(pytest.param(device, id=device.name))
    return params


@pytest.fixture(params=_params())
def device(request):
    return request.param
