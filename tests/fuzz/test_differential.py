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

from .cases import Case, lay_out
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


def _known(id, device, case, covers, reason):
    return pytest.param(Known(device, case, covers), id=id, marks=(
        pytest.mark.xfail(strict=True, reason=reason)))


# None at present: each would be a _known(...) entry.
KNOWN = []


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

