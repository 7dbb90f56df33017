"""The two file formats, as a fixture: most behaviour is shared."""
import pytest

from ._formats import FORMATS


@pytest.fixture(params=sorted(FORMATS))
def fmt(request):
    if request.param == 'hdf5':
        pytest.importorskip('h5py')
    return FORMATS[request.param]
