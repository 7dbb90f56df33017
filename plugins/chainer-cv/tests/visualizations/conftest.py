"""The vis tests draw on Agg figures, closed after each test."""
import sys

import pytest

matplotlib = pytest.importorskip('matplotlib')
matplotlib.use('Agg')


@pytest.fixture
def ax():
    from matplotlib import pyplot
    fig = pyplot.figure()
    yield fig.add_subplot(1, 1, 1)
    pyplot.close(fig)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    from matplotlib import pyplot
    pyplot.close('all')


@pytest.fixture
def without_matplotlib(monkeypatch):
    """Make ``import matplotlib`` fail, as where it is not installed."""
    for name in list(sys.modules):
        if name == 'matplotlib' or name.startswith('matplotlib.'):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, 'matplotlib', None)
    monkeypatch.setitem(sys.modules, 'matplotlib.pyplot', None)
