"""The op table of the conformance suite.

Each :class:`Case` is one op, or one notable variant of it: how to make its
inputs, how to call it, a NumPy reference computed here in float64 (never
through chainer_core), whether it is differentiable twice, and the
tolerances that differ from the defaults below.
"""
import dataclasses

import numpy


f16, f32, f64 = numpy.float16, numpy.float32, numpy.float64
DTYPES = (f16, f32, f64)

# Forward: float16 rounds each result to ~5e-4 relative; float32 and
# float64 are held to a few ulps of the float64 reference.
FORWARD_TOL = {
    f16: dict(atol=1e-3, rtol=2e-3),
    f32: dict(atol=1e-6, rtol=1e-5),
    f64: dict(atol=1e-12, rtol=1e-10),
}
# Gradient checks compare one directional derivative. float16 backprop is
# checked against a float64 numerical derivative (as Chainer tests it), so
# its tolerance covers float16 rounding of the analytic side only; float32
# differentiates numerically in float32, whose rounding the step amplifies.
BACKWARD_TOL = {
    f16: dict(atol=5e-3, rtol=1e-2),
    f32: dict(atol=1e-3, rtol=1e-3),
    f64: dict(atol=1e-6, rtol=1e-5),
}
DOUBLE_TOL = {
    f16: dict(atol=1e-2, rtol=2e-2),
    f32: dict(atol=2e-3, rtol=2e-3),
    f64: dict(atol=1e-5, rtol=1e-4),
}


# -- input generators

class Floats:
    """Uniform floats in ``[low, high]``, of the dtype under test."""

    def __init__(self, shape, low=-1.0, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        return rng.uniform(self.low, self.high, self.shape).astype(dtype)


class Signed:
    """Floats of random sign with magnitude in ``[low, high]``: keeps
    inputs away from zero (relu's kink, a divisor's pole)."""

    def __init__(self, shape, low=0.2, high=1.0):
        self.shape, self.low, self.high = shape, low, high

    def make(self, rng, dtype):
        magnitude = rng.uniform(self.low, self.high, self.shape)
        sign = rng.choice((-1.0, 1.0), self.shape)
        return (sign * magnitude).astype(dtype)


class Ints:
    """Integers in ``[low, high)`` (labels); the dtype under test does not
    apply."""

    def __init__(self, shape, low, high, dtype=numpy.int32):
        self.shape, self.low, self.high, self.dtype = shape, low, high, dtype

    def make(self, rng, dtype):
        return rng.randint(self.low, self.high, self.shape).astype(
            self.dtype)


class Fixed:
    """Given values, e.g. labels that include ``ignore_label``."""

    def __init__(self, values, dtype=numpy.int32):
        self.values, self.dtype = values, dtype

    def make(self, rng, dtype):
        return numpy.array(self.values, dtype=self.dtype)


class Mask:
    """A boolean mask with both values present."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        mask = rng.uniform(size=self.shape) < 0.5
        mask.flat[0], mask.flat[-1] = True, False
        return mask


# -- the case record

@dataclasses.dataclass(frozen=True)
class Case:
    """One op variant.

    ``call(*variables, **consts)`` runs the op; ``ref(*arrays, **consts)``
    computes the expected output from float64 copies of the inputs. Values
    in ``consts`` that are generators are made per dtype; NumPy arrays among
    them are sent to the device under test for ``call`` (index arrays,
    masks, class weights) and stay on the host for ``ref``. ``fwd``, ``bwd``
    and ``dbl`` override the default tolerances per dtype.
    """

    id: str
    inputs: tuple
    call: object
    ref: object
    consts: dict = dataclasses.field(default_factory=dict)
    double: bool = True
    fwd: dict = dataclasses.field(default_factory=dict)
    bwd: dict = dataclasses.field(default_factory=dict)
    dbl: dict = dataclasses.field(default_factory=dict)

    def tolerance(self, kind, dtype):
        default, override = {
            'forward': (FORWARD_TOL, self.fwd),
            'backward': (BACKWARD_TOL, self.bwd),
            'double': (DOUBLE_TOL, self.dbl),
        }[kind]
        tol = dict(default[dtype])
        tol.update(override.get(dtype, {}))
        return tol


CASES = []


def case(*args, **kwargs):
    """Add a :class:`Case` to the table."""
    CASES.append(Case(*args, **kwargs))


def _load_category_modules():
    """Every module of this package adds its cases when imported, so a new
    category is one new file."""
    import importlib
    import pkgutil
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(__name__ + '.' + info.name)


_load_category_modules()
