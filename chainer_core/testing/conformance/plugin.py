"""pytest plugin of chainer-core, loaded through its ``pytest11`` entry
point wherever chainer-core is installed (``-p no:chainer_core`` turns it
off).

It adds the ``chainer_device`` fixture: a test that takes it runs once per
device of the test table (:func:`chainer_core.testing.backend.device_params`:
one device per available backend, or those of ``CHAINER_TEST_DEVICES``),
with the device's name as the test id, and is reported skipped, with the
reason, for a backend that is installed but cannot be used here. The tests
of the conformance kit get the same parameters under the name ``device``.
Nothing is discovered until a collected test asks for a device.
"""
import pytest

FIXTURE = 'chainer_device'


def _argname(metafunc):
    if FIXTURE in metafunc.fixturenames:
        return FIXTURE
    # A plain ``device`` argument only in the kit's own modules: elsewhere
    # the name is too common to claim.
    module = getattr(metafunc.module, '__name__', '')
    if module.startswith(__package__ + '.') and \
            'device' in metafunc.fixturenames:
        return 'device'
    return None


def pytest_generate_tests(metafunc):
    argname = _argname(metafunc)
    if argname is not None:
        from chainer_core.testing.backend import device_params
        metafunc.parametrize(argname, device_params(),
                             indirect=argname == FIXTURE)


@pytest.fixture
def chainer_device(request):
    """A device of the test table (a ``backend_api.Device``)."""
    return request.param
