"""Random cases of common ops on every installed device, forward and
backward, against the ``@numpy`` device: the same output and gradient
shapes and dtypes, values within the dtype's rounding (NaN and infinities
where ``@numpy`` has them), and the same exception where ``@numpy`` raises.

Each case is drawn from a seed of its own (op name and index), so a failure
reproduces alone; ``CHAINER_FUZZ_CASES`` sets the number of cases per op
(the default keeps the file within a CI budget).
"""
import dataclasses
import functools
import os
import warnings

import numpy
import pytest

import chainer_core
from conformance.devices import discover

from .cases import Case, Input, lay_out
from .ops import OPS, call, generate

HOST = chainer_core.get_device('@numpy')
CASES_PER_OP = int(os.environ.get('CHAINER_FUZZ_CASES', 100))

# A device may round differently from @numpy (a fused or a wider
# intermediate, another libm) by a few units in the last place of each
# result, or of 1 where a result is small after cancellation (the inputs
# are about 1). An element that accumulates n terms in another order (a
# running sum where @numpy sums pairwise) may differ by n times as much:
# the error of a running sum grows linearly with its length where the
# terms share a sign (a broadcast operand) and is n units of the last
# place of 1 where their signs are random. @numpy's own rounding error,
# its distance from the same computation in float64, is not held against
# the device.
ULPS = 4


def _devices():
    params = []
    for backend, devices, reason in discover():
        if backend.name == 'numpy':
            continue
        if not devices:
            params.append(pytest.param(
                None, id=backend.name, marks=pytest.mark.skip(
                    reason='backend {!r}: {}'.format(backend.name, reason))))
        params += [pytest.param(d, id=d.name) for d in devices]
    return params


# -- running a case

@dataclasses.dataclass
class Outcome:
    """What a case gave on one device, on the host: the exception and the
    stage that raised it, or the outputs, the inputs' gradients (``None``
    for no gradient) and the inputs after the call. ``foreign`` names the
    outputs and gradients that are not arrays of the device."""

    error: tuple = None
    outputs: list = None
    grads: list = None
    inputs_after: list = None
    foreign: list = dataclasses.field(default_factory=list)


def run(case, device, compute_dtype=None):
    """``case`` on ``device``, computed in ``compute_dtype`` (float64 for
    the exact values) or the case's dtype; the values are the same. The
    output gradients come in random layouts too."""
    rng = numpy.random.RandomState(case.seed)
    bases = case.make(rng)
    if compute_dtype is not None:
        bases = [b.astype(compute_dtype) if inp.differentiable else b
                 for inp, b in zip(case.inputs, bases)]
    arrays = [inp.place(b, device) for inp, b in zip(case.inputs, bases)]
    xs = [chainer_core.Variable(a) if inp.differentiable else a
          for inp, a in zip(case.inputs, arrays)]
    out = Outcome()
    with warnings.catch_warnings(), numpy.errstate(all='ignore'):
        # Overflow, 0/0 and empty reductions are compared as values.
        warnings.simplefilter('ignore')
        try:
            ys = call(case, xs)
        except Exception as e:
            out.error = ('forward', e)
            return out
        gys = []
        for y in ys:
            gy = lay_out(rng, y.shape, ('uniform', -1.0, 1.0))
            gys.append(chainer_core.Variable(gy.place(
                gy.make(rng, case.dtype).astype(y.dtype), device)))
        try:
            chainer_core.backward(list(ys), gys)
        except Exception as e:
            out.error = ('backward', e)
            return out
    out.outputs = [_fetch(y.array, device, 'output {}'.format(i), out)
                   for i, y in enumerate(ys)]
    out.grads = [None if not isinstance(x, chainer_core.Variable)
                 or x.grad is None
                 else _fetch(x.grad, device, 'gradient {}'.format(i), out)
                 for i, x in enumerate(xs)]
    out.inputs_after = [HOST.send(a) for a in arrays]
    return out


def _fetch(a, device, what, out):
    if not device.is_array_supported(a):
        out.foreign.append('{} is a {}'.format(what, type(a).__name__))
    return numpy.asarray(HOST.send(a))


@functools.lru_cache(maxsize=None)
def reference(op, index):
    """Case ``index`` of ``op``, what @numpy gives, and the same in
    float64."""
    case = generate(op, index)
    return case, run(case, HOST), run(case, HOST, numpy.float64)


# -- comparing outcomes

def differences(case, expected, exact, actual):
    """What ``actual`` gets wrong against @numpy's ``expected``."""
    if expected.error or actual.error:
        if not (expected.error and actual.error):
            stage, e = expected.error or actual.error
            who = '@numpy' if expected.error else 'the device'
            return ['only {} raises, in {}: {}: {}'.format(
                who, stage, type(e).__name__, e)]
        (stage, e), (got_stage, got) = expected.error, actual.error
        # A subclass is still caught by code written against @numpy.
        if got_stage != stage or not isinstance(got, type(e)):
            return ['@numpy raises {} in {} ({}); the device raises {} in '
                    '{} ({})'.format(type(e).__name__, stage, e,
                                     type(got).__name__, got_stage, got)]
        return []
    found = list(actual.foreign)
    if len(actual.outputs) != len(expected.outputs):
        return found + ['{} outputs, @numpy gives {}'.format(
            len(actual.outputs), len(expected.outputs))]
    exact_outputs = exact.outputs if exact.error is None else None
    exact_grads = exact.grads if exact.error is None else None
    for i, (a, e) in enumerate(zip(actual.outputs, expected.outputs)):
        found += _compare('output {}'.format(i), a, e,
                          exact_outputs and exact_outputs[i], case)
    for i, (a, e) in enumerate(zip(actual.grads, expected.grads)):
        if (a is None) != (e is None):
            found.append('gradient {} is {}, @numpy {}'.format(
                i, _none(a), _none(e)))
        elif a is not None:
            found += _compare('gradient {}'.format(i), a, e,
                              exact_grads and exact_grads[i], case)
    for i, (a, e) in enumerate(zip(actual.inputs_after,
                                   expected.inputs_after)):
        if not numpy.array_equal(a, e, equal_nan=a.dtype.kind == 'f'):
            found.append('input {} was written to'.format(i))
    return found


def _none(a):
    return 'None' if a is None else 'an array'


def _compare(what, actual, expected, exact, case):
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return ['{} is {} {}, @numpy gives {} {}'.format(
            what, actual.dtype, actual.shape, expected.dtype,
            expected.shape)]
    a = actual.astype(numpy.float64)
    e = expected.astype(numpy.float64)
    finite = numpy.isfinite(e)
    nonfinite_differ = ~numpy.isfinite(a) | ~finite
    nonfinite_differ &= ~((a == e) | (numpy.isnan(a) & numpy.isnan(e)))
    tol = ULPS * float(numpy.finfo(expected.dtype).eps) * case.terms * (
        numpy.abs(e) + 1)
    with numpy.errstate(invalid='ignore'):
        if exact is not None and exact.shape == e.shape:
            slack = numpy.abs(e - exact)
            tol = tol + numpy.where(numpy.isfinite(slack), slack, 0)
        bad = nonfinite_differ | (finite & ~(numpy.abs(a - e) <= tol))
    if not bad.any():
        return []
    where = tuple(int(i) for i in numpy.argwhere(bad)[0])
    return ['{} differs at {} of {} elements, first at {}: {!r}, @numpy '
            '{!r}'.format(what, int(bad.sum()), bad.size, where,
                          actual[where], expected[where])]


def report(case, device, found):
    return 'on {}: {}\n  {}'.format(device.name, case, '\n  '.join(found))


# -- known differences of the devices, until they are fixed

@dataclasses.dataclass(frozen=True)
class Known:
    """A difference of ``device``: ``case``, its smallest reproducer, and
    ``covers``, which fuzz cases hit it (those are left to this one)."""

    device: str
    case: Case
    covers: object


def _convolution_bias_view(case):
    return (case.op == 'convolution_2d' and len(case.inputs) == 3 and
            case.inputs[2].view != ())


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


def _convolution_kernel_overhang(case):
    """``cover_all`` and a dilated kernel longer than the padded input."""
    if case.op != 'convolution_2d' or not case.params.get('cover_all'):
        return False
    x, w = case.inputs[0].shape, case.inputs[1].shape
    pad = _pair(case.params.get('pad', 0))
    dilate = _pair(case.params.get('dilate', 1))
    return any(dilate[i] * (w[2 + i] - 1) + 1 > x[2 + i] + 2 * pad[i]
               for i in (0, 1))


def _max_pooling_nan(case):
    return (case.op == 'max_pooling_2d' and
            numpy.isnan(case.host_inputs()[0]).any())


def _softmax_cross_entropy_nonfinite_ignored(case):
    if case.op != 'softmax_cross_entropy':
        return False
    x, t = case.host_inputs()
    return not numpy.isfinite(numpy.moveaxis(x, 1, -1)[t == -1]).all()


def _softmax_cross_entropy_no_class(case):
    return (case.op == 'softmax_cross_entropy' and
            case.inputs[0].shape[1] == 0)


def _known(id, device, case, covers, reason):
    return pytest.param(Known(device, case, covers), id=id, marks=(
        pytest.mark.xfail(strict=True, reason=reason)))


_ONE = Input((1, 1, 1, 1), ('fixed', (1.0,)))
_NO_LABEL = Input((1,), ('ints', -1, 0))

KNOWN = [
    _known(
        'native-convolution_2d-bias-view', 'native:0',
        Case('convolution_2d', 'float64', (
            _ONE, Input((2, 1, 1, 1), ('fixed', (0.0, 0.0))),
            Input((4,), ('fixed', (0.0, 1.0, 2.0, 3.0)),
                  (('slice', ((None, None, 2),)),)))),
        _convolution_bias_view,
        'native:0 reads a non-contiguous bias as if it were contiguous: '
        'F.convolution_2d(ones((1, 1, 1, 1)), zeros((2, 1, 1, 1)), '
        'arange(4.)[::2]) gives [0, 1] (@numpy: [0, 2]) along the output '
        'channels'),
    _known(
        'native-convolution_2d-cover_all-backward', 'native:0',
        Case('convolution_2d', 'float64', (
            _ONE, Input((1, 1, 1, 2), ('fixed', (1.0, 1.0)))),
            {'stride': 2, 'cover_all': True}),
        _convolution_kernel_overhang,
        'F.convolution_2d(ones((1, 1, 1, 1)), ones((1, 1, 1, 2)), stride=2, '
        'cover_all=True) on native:0: the forward gives (1, 1, 1, 1) as '
        '@numpy does, the backward raises ValueError: conv_grad_weight: '
        'the kernel (extent 2) does not fit in the padded input (size 1) '
        'along spatial axis 1 (@numpy: gW = gy * [1, 0])'),
    _known(
        'native-max_pooling_2d-nan', 'native:0',
        Case('max_pooling_2d', 'float64',
             (Input((1, 1, 1, 2), ('fixed', (1.0, numpy.nan))),),
             {'ksize': (1, 2)}),
        _max_pooling_nan,
        'native:0 skips a NaN that is not first in its window: '
        'F.max_pooling_2d([[[[1, nan]]]], (1, 2)) gives 1 and the gradient '
        'to x[..., 0] (@numpy: nan, the gradient to x[..., 1])'),
    _known(
        'native-softmax_cross_entropy-nan-ignored', 'native:0',
        Case('softmax_cross_entropy', 'float64', (
            Input((1, 2), ('fixed', (numpy.nan, 1.0))), _NO_LABEL),
            {'reduce': 'no'}),
        _softmax_cross_entropy_nonfinite_ignored,
        'native:0 zeroes the gradient of a row whose label is ignored even '
        'where the row holds NaN or an infinity: '
        "F.softmax_cross_entropy([[nan, 1]], [-1], reduce='no') gives the "
        'gradient [[0, 0]] (@numpy: [[nan, nan]])'),
    _known(
        'native-softmax_cross_entropy-no-class', 'native:0',
        Case('softmax_cross_entropy', 'float64', (
            Input((1, 0), ('fixed', ())), _NO_LABEL), {'reduce': 'no'}),
        _softmax_cross_entropy_no_class,
        "F.softmax_cross_entropy(zeros((1, 0)), [-1], reduce='no') on "
        'native:0 gives [0] (@numpy raises ValueError: zero-size array to '
        'reduction operation maximum which has no identity)'),
]


def _known_covers(case, device):
    return any(p.values[0].device == device.name and
               p.values[0].covers(case) for p in KNOWN)


@pytest.mark.parametrize('device', _devices())
@pytest.mark.parametrize('op', sorted(OPS))
def test_fuzz(op, device):
    failures = []
    for index in range(CASES_PER_OP):
        case, expected, exact = reference(op, index)
        if _known_covers(case, device):
            continue
        found = differences(case, expected, exact, run(case, device))
        if found:
            failures.append(report(case, device, found))
    assert not failures, '{} of {} cases differ:\n{}'.format(
        len(failures), CASES_PER_OP, '\n'.join(failures))


@pytest.mark.parametrize('known', KNOWN)
def test_known(known):
    devices = {d.name: d for _, ds, _ in discover() for d in ds}
    if known.device not in devices:
        pytest.skip('{} is not installed'.format(known.device))
    device = devices[known.device]
    case = known.case
    found = differences(case, run(case, HOST),
                        run(case, HOST, numpy.float64), run(case, device))
    assert not found, report(case, device, found)

