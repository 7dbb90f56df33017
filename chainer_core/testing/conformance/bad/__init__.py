"""The bad-input table: :class:`Bad` records, one module per op category
(each adds its records with :func:`bad` when imported)."""
import numpy
import pytest

i32, f32, f64 = numpy.int32, numpy.float32, numpy.float64


class Maker:
    """Arrays on the device under test, created with NumPy."""

    def __init__(self, device):
        self.device = device

    def __call__(self, shape, dtype=f32):
        size = int(numpy.prod(shape))
        a = numpy.linspace(-1, 1, size).reshape(shape).astype(dtype)
        return self.device.send(a)

    def values(self, values, dtype=i32):
        return self.device.send(numpy.array(values, dtype=dtype))


class Bad:
    """``call(maker)`` must raise; ``names`` are the op's node label and
    public name, ``args`` the words that may name the offending argument."""

    def __init__(self, id, call, names, args):
        self.id = id
        self.call = call
        self.names = names
        self.args = args

    def param(self):
        return pytest.param(self, id=self.id)


def _op(*names):
    return names


ADD, SUB, MUL, DIV, POW = (_op('_ + _', 'add'), _op('_ - _', 'sub'),
                           _op('_ * _', 'mul'), _op('_ / _', 'div'),
                           _op('_ ** _', 'pow'))
BINARY_ARGS = ('lhs', 'rhs')
AXIS = ('axis',)
INDEX = ('slices', 'index', 'indices')

BAD = []


def bad(*args, **kwargs):
    """Add a :class:`Bad` record to the table."""
    BAD.append(Bad(*args, **kwargs))


def _load_category_modules():
    import importlib
    import pkgutil
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(__name__ + '.' + info.name)


_load_category_modules()
