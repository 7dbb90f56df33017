"""Fuzz cases: an op's inputs (shape, values, memory layout, where the layout
is built), its parameters and a seed, and the random draws that make them.

A case is plain data whose ``repr`` rebuilds it, so a failing case printed
by the test can be pasted into the list of known differences as it is.
"""
import dataclasses

import numpy

# The element count of the one large case per op.
LARGE = 100000

# Values of an input: ``('uniform', low, high)``; ``('signed', low, high)``,
# a magnitude in ``[low, high]`` of random sign (divisors stay away from
# zero); ``('special', low, high)``, uniform with NaN, infinities and zeros
# of either sign sprinkled in; ``('extreme', low, high)``, the same and the
# largest finite values too (whether a sum of those overflows depends on
# the order of its terms, so they go to elementwise ops only);
# ``('fixed', values)``, given values in C order; ``('ints', low, high)``,
# int32 labels in ``[low, high)``; ``('mask',)``, booleans. Float values
# take the case's dtype and are differentiated; the others are passed as
# arrays.
FLOAT_VALUES = ('uniform', 'signed', 'special', 'extreme', 'fixed')


@dataclasses.dataclass(frozen=True)
class Input:
    """An input of an op: ``base``, an array of that shape and of random
    ``values``, seen through ``view``, a sequence of steps each of which is
    ``('transpose', axes)``, ``('slice', ((start, stop, step), ...))`` or
    ``('broadcast', shape)``. ``on_device`` says whether the view is taken
    of the base after it was sent to the device (the device's own views)
    or before (the device receives a non-contiguous NumPy array)."""

    base: tuple
    values: tuple = ('uniform', -1.0, 1.0)
    view: tuple = ()
    on_device: bool = False

    @property
    def differentiable(self):
        return self.values[0] in FLOAT_VALUES

    @property
    def shape(self):
        """The shape the op receives."""
        return self.apply_view(
            numpy.broadcast_to(numpy.float64(0), self.base), numpy).shape

    def make(self, rng, dtype):
        """The base array, on the host."""
        kind, args = self.values[0], self.values[1:]
        if kind == 'fixed':
            return numpy.array(args[0], dtype=dtype).reshape(self.base)
        if kind == 'ints':
            return rng.randint(args[0], args[1], self.base).astype(
                numpy.int32)
        if kind == 'mask':
            return rng.uniform(size=self.base) < 0.5
        if kind == 'signed':
            magnitude = rng.uniform(args[0], args[1], self.base)
            return (rng.choice((-1.0, 1.0), self.base) * magnitude).astype(
                dtype)
        x = rng.uniform(args[0], args[1], self.base).astype(dtype)
        if kind in ('special', 'extreme'):
            special = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0]
            if kind == 'extreme':
                special += [numpy.finfo(dtype).max, -numpy.finfo(dtype).max]
            special = numpy.array(special, dtype=dtype)
            where = rng.uniform(size=self.base) < 0.1
            x[where] = rng.choice(special, int(where.sum()))
        return x

    def apply_view(self, a, xp):
        """``a`` seen through the view; ``xp`` is the array module of
        ``a``'s device."""
        for step, arg in self.view:
            if step == 'transpose':
                a = a.transpose(arg)
            elif step == 'slice':
                a = a[tuple(slice(*s) for s in arg)]
            else:
                a = xp.broadcast_to(a, arg)
        return a

    def place(self, base, device):
        """The input as the op receives it on ``device``."""
        if self.on_device:
            return self.apply_view(device.send(base), device.xp)
        return device.send(self.apply_view(base, numpy))


@dataclasses.dataclass(frozen=True)
class Case:
    """One call of ``op`` (a name of the op table) with ``params`` as
    keyword arguments. ``terms`` bounds how many rounded values any one
    output or gradient element accumulates (its tolerance grows with it);
    ``seed`` makes the input values and the output gradients."""

    op: str
    dtype: str
    inputs: tuple
    params: dict = dataclasses.field(default_factory=dict)
    terms: int = 1
    seed: int = 0

    def make(self, rng):
        """The base arrays of the inputs, on the host."""
        return [inp.make(rng, self.dtype) for inp in self.inputs]

    def host_inputs(self):
        """The inputs as the op receives them on the host."""
        bases = self.make(numpy.random.RandomState(self.seed))
        return [inp.apply_view(b, numpy)
                for inp, b in zip(self.inputs, bases)]


class Draw:
    """Random choices of shapes, axes and values for an op's generator.
    In a ``large`` case, shapes have about :data:`LARGE` elements."""

    def __init__(self, rng, large):
        self.rng = rng
        self.large = large

    def pick(self, choices):
        return choices[self.rng.randint(len(choices))]

    def chance(self, p):
        return self.rng.uniform() < p

    def dim(self):
        """An axis length; empty and length-1 axes are frequent, as the
        edge cases of broadcasting, reduction and squeezing."""
        r = self.rng.uniform()
        if r < 0.08:
            return 0
        if r < 0.25:
            return 1
        return int(self.rng.randint(2, 6))

    def shape(self, min_ndim=0, max_ndim=4):
        if not self.large:
            ndim = self.rng.randint(min_ndim, max_ndim + 1)
            return tuple(self.dim() for _ in range(ndim))
        ndim = self.rng.randint(max(min_ndim, 1), max(max_ndim, 1) + 1)
        shares = self.rng.dirichlet(numpy.ones(ndim))
        return tuple(max(1, int(round(LARGE ** s))) for s in shares)

    def axis(self, ndim, extra=0):
        """An axis of an ``ndim + extra``-dimensional result, as either
        sign; now and then the first one out of range, whose error the
        devices must raise alike."""
        n = ndim + extra
        if n == 0 or self.chance(0.03):
            return n
        return int(self.rng.randint(-n, n))

    def axes(self, ndim):
        """``None``, one axis or a tuple of axes (in any order, either
        sign, possibly none) to reduce over."""
        r = self.rng.uniform()
        if r < 0.3 or ndim == 0:
            return None
        if r < 0.6:
            return self.axis(ndim)
        count = self.rng.randint(ndim + 1)
        chosen = self.rng.permutation(ndim)[:count]
        return tuple(int(a - ndim if self.chance(0.5) else a)
                     for a in chosen)

    def broadcastable(self, shape):
        """A shape that broadcasts to ``shape``: fewer leading axes, some
        axes of length 1."""
        kept = shape[self.rng.randint(len(shape) + 1):]
        return tuple(1 if self.chance(0.5) else s for s in kept)

    def floats(self, low=-1.0, high=1.0):
        return ('special' if self.chance(0.1) else 'uniform', low, high)


def lay_out(rng, shape, values):
    """An :class:`Input` of ``shape`` in a random memory layout."""
    ndim = len(shape)
    layouts = ['contiguous']
    if ndim:
        layouts += ['stepped', 'reversed', 'broadcast']
    if ndim > 1:
        layouts.append('transposed')
    layout = layouts[rng.randint(len(layouts))]
    if layout == 'contiguous':
        return Input(shape, values)
    on_device = bool(rng.uniform() < 0.5)
    axes = [a for a in range(ndim) if rng.uniform() < 0.6] or [ndim - 1]
    if layout == 'transposed':
        perm = rng.permutation(ndim)
        while (perm == numpy.arange(ndim)).all():
            perm = rng.permutation(ndim)
        base = tuple(shape[a] for a in numpy.argsort(perm))
        view = (('transpose', tuple(int(a) for a in perm)),)
        return Input(base, values, view, on_device)
    if layout == 'broadcast':
        lead = rng.randint(ndim + 1)
        base = tuple(1 if a in axes else shape[a] for a in range(lead, ndim))
        return Input(base, values, (('broadcast', tuple(shape)),), on_device)
    base, slices = [], []
    for a, size in enumerate(shape):
        if a not in axes:
            base.append(size)
            slices.append((None, None, None))
            continue
        step = int(rng.choice((2, 3) if layout == 'stepped' else (-1, -2)))
        offset = int(rng.randint(2))
        base.append(size * abs(step) + offset)
        if step > 0:
            slices.append((offset, None, step))
        else:
            # From the last element backwards, ``size`` of them.
            slices.append((None, offset - 1 if offset else None, step))
    return Input(tuple(base), values, (('slice', tuple(slices)),), on_device)
