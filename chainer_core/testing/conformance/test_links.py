"""Every link of ``chainer_core.links`` on every device: built from one seed,
its forward outputs and parameter gradients match the same link on
``@numpy``; it goes to the device and back, and through an npz file,
unchanged."""
import copy
import io

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import serializers

HOST = chainer.get_device('@numpy')
DTYPES = [numpy.float32, numpy.float64]


def _f(*shape):
    return lambda rng, dtype: rng.uniform(-1, 1, shape).astype(dtype)


def _i(high, *shape):
    return lambda rng, dtype: rng.randint(0, high, shape).astype(
        numpy.int32)


class Case:
    """A link to build (``make``, under the default dtype of the test), its
    inputs (``inputs``: makers of host arrays from a RandomState and the
    float dtype) and how to call it (``call(link, *xs)``,
    default ``link(*xs)``)."""

    def __init__(self, name, make, inputs, call=None, reseed=False):
        self.name = name
        self.make = make
        self.inputs = inputs
        self.call = call or (lambda link, *xs: link(*xs))
        # Links that draw samples in their forward (drawn on the host by
        # their call): numpy.random is seeded before each call, so that
        # every device gets the same.
        self.reseed = reseed


class _SentSamples:
    """Stands for a link's sampler: draws with a host copy of it, then
    sends the samples to the device of the link."""

    def __init__(self, sampler, device):
        self._host = copy.deepcopy(sampler)
        self._host.to_device(HOST)
        self._device = device

    def sample(self, shape):
        return self._device.send(self._host.sample(shape))


def _host_samples(link, *xs):
    # A sampler on a GPU draws with that device's generator, whose numbers
    # differ from numpy.random's for one seed; drawn on the host and sent,
    # the negative samples are the same on every device, and the link uses
    # them as it uses its own.
    sampler = link.sampler
    link.sampler = _SentSamples(
        sampler, chainer.backend.get_device_from_array(link.W.array))
    try:
        return link(*xs)
    finally:
        link.sampler = sampler


def _n_step(link, *xs):
    return link(None, *([None] if 'LSTM' in type(link).__name__ else []),
                list(xs))


def _test_mode(link, x):
    with chainer.using_config('train', False):
        return link(x), link(x)


def _crf(link, x0, x1, y0, y1):
    return link([x0, x1], [y0, y1])


_TREE = ((0, 1), (2, (3, 4)))

CASES = [
    Case('BatchNormalization', lambda: L.BatchNormalization(3),
         [_f(4, 3, 2)]),
    Case('BatchRenormalization', lambda: L.BatchRenormalization(3),
         [_f(4, 3)]),
    Case('Bias', lambda: L.Bias(shape=(3,)), [_f(2, 3, 2)]),
    Case('Bilinear', lambda: L.Bilinear(3, 2, 4), [_f(2, 3), _f(2, 2)]),
    Case('BinaryHierarchicalSoftmax',
         lambda: L.BinaryHierarchicalSoftmax(3, _TREE), [_f(4, 3), _i(5, 4)]),
    Case('BlackOut', lambda: L.BlackOut(3, [3, 2, 1, 4], 2),
         [_f(2, 3), _i(4, 2)], _host_samples, reseed=True),
    Case('CRF1d', lambda: L.CRF1d(3),
         [_f(2, 3), _f(2, 3), _i(3, 2), _i(3, 2)], _crf),
    Case('ChildSumTreeLSTM', lambda: L.ChildSumTreeLSTM(3, 2),
         [_f(2, 2), _f(2, 2), _f(2, 2), _f(2, 2), _f(2, 3)]),
    Case('Classifier', lambda: L.Classifier(L.Linear(3, 4)),
         [_f(2, 3), _i(4, 2)]),
    Case('Convolution1D', lambda: L.Convolution1D(2, 3, 2), [_f(1, 2, 5)]),
    Case('Convolution2D', lambda: L.Convolution2D(2, 3, 3, pad=1),
         [_f(2, 2, 5, 5)]),
    Case('Convolution3D', lambda: L.Convolution3D(2, 3, 2),
         [_f(1, 2, 3, 3, 3)]),
    Case('ConvolutionND', lambda: L.ConvolutionND(2, 2, 3, 2, stride=2),
         [_f(1, 2, 5, 5)]),
    Case('Deconvolution1D', lambda: L.Deconvolution1D(2, 3, 2),
         [_f(1, 2, 4)]),
    Case('Deconvolution2D', lambda: L.Deconvolution2D(2, 3, 3, stride=2),
         [_f(1, 2, 3, 3)]),
    Case('Deconvolution3D', lambda: L.Deconvolution3D(2, 3, 2),
         [_f(1, 2, 2, 2, 2)]),
    Case('DeconvolutionND', lambda: L.DeconvolutionND(2, 2, 3, 2),
         [_f(1, 2, 3, 3)]),
    Case('DecorrelatedBatchNormalization',
         lambda: L.DecorrelatedBatchNormalization(4, groups=2),
         [_f(6, 4)]),
    Case('DeformableConvolution2D',
         lambda: L.DeformableConvolution2D(2, 3, 2), [_f(1, 2, 4, 4)]),
    Case('DepthwiseConvolution2D',
         lambda: L.DepthwiseConvolution2D(2, 2, 2), [_f(1, 2, 4, 4)]),
    Case('DilatedConvolution2D',
         lambda: L.DilatedConvolution2D(2, 3, 2, dilate=2), [_f(1, 2, 5, 5)]),
    Case('EmbedID', lambda: L.EmbedID(5, 3), [_i(5, 2, 3)]),
    Case('GRU', lambda: L.GRU(3, 4), [_f(2, 3)],
         lambda link, x: (link(x), link(x))),
    Case('GroupNormalization', lambda: L.GroupNormalization(2, 4),
         [_f(2, 4, 3)]),
    Case('Highway', lambda: L.Highway(3), [_f(2, 3)]),
    Case('Inception', lambda: L.Inception(2, 2, 2, 2, 2, 2, 2),
         [_f(1, 2, 4, 4)]),
    Case('InceptionBN', lambda: L.InceptionBN(2, 2, 2, 2, 2, 2, 'max', 2),
         [_f(2, 2, 4, 4)]),
    Case('LSTM', lambda: L.LSTM(3, 4), [_f(2, 3)],
         lambda link, x: (link(x), link(x))),
    Case('LayerNormalization', lambda: L.LayerNormalization(4), [_f(3, 4)]),
    Case('Linear', lambda: L.Linear(3, 4), [_f(2, 3)]),
    Case('LocalConvolution2D', lambda: L.LocalConvolution2D(2, 3, (4, 4), 2),
         [_f(1, 2, 4, 4)]),
    Case('MLPConvolution2D', lambda: L.MLPConvolution2D(2, (3, 2), 2),
         [_f(1, 2, 4, 4)]),
    Case('Maxout', lambda: L.Maxout(3, 2, 3), [_f(2, 3)]),
    Case('NStepBiGRU', lambda: L.NStepBiGRU(2, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepBiLSTM', lambda: L.NStepBiLSTM(2, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepBiRNNReLU', lambda: L.NStepBiRNNReLU(1, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepBiRNNTanh', lambda: L.NStepBiRNNTanh(1, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepGRU', lambda: L.NStepGRU(2, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepLSTM', lambda: L.NStepLSTM(2, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepRNNReLU', lambda: L.NStepRNNReLU(1, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NStepRNNTanh', lambda: L.NStepRNNTanh(1, 3, 2, 0.0),
         [_f(3, 3), _f(2, 3)], _n_step),
    Case('NaryTreeLSTM', lambda: L.NaryTreeLSTM(3, 2, 2),
         [_f(2, 2), _f(2, 2), _f(2, 2), _f(2, 2), _f(2, 3)]),
    Case('NegativeSampling', lambda: L.NegativeSampling(3, [3, 2, 1, 4], 2),
         [_f(2, 3), _i(4, 2)], _host_samples, reseed=True),
    Case('PReLU', lambda: L.PReLU((3,)), [_f(2, 3)]),
    Case('Parameter', lambda: L.Parameter(
        numpy.random.uniform(-1, 1, (2, 3)).astype(chainer.get_dtype())),
        [],
        lambda link: link() * 1),
    Case('Scale', lambda: L.Scale(W_shape=(3,), bias_term=True),
         [_f(2, 3, 2)]),
    Case('SimplifiedDropconnect', lambda: L.SimplifiedDropconnect(3, 2),
         [_f(2, 3), lambda rng, dtype: (rng.uniform(size=(2, 2, 3)) > 0.5)
          .astype(dtype)],
         lambda link, x, mask: link(x, mask=mask)),
    Case('StatefulGRU', lambda: L.StatefulGRU(3, 4), [_f(2, 3)],
         lambda link, x: (link(x), link(x))),
    Case('StatefulMGU', lambda: L.StatefulMGU(3, 4), [_f(2, 3)],
         lambda link, x: (link(x), link(x))),
    Case('StatefulPeepholeLSTM', lambda: L.StatefulPeepholeLSTM(3, 4),
         [_f(2, 3)], lambda link, x: (link(x), link(x))),
    Case('StatefulZoneoutLSTM', lambda: L.StatefulZoneoutLSTM(3, 4),
         [_f(2, 3)], _test_mode),
    Case('StatelessGRU', lambda: L.StatelessGRU(3, 4), [_f(2, 4), _f(2, 3)]),
    Case('StatelessLSTM', lambda: L.StatelessLSTM(3, 4),
         [_f(2, 4), _f(2, 4), _f(2, 3)]),
    Case('StatelessMGU', lambda: L.StatelessMGU(3, 4), [_f(2, 4), _f(2, 3)]),
    Case('Swish', lambda: L.Swish((3,)), [_f(2, 3)]),
]

# The pre-trained architectures are built from the links above; at their
# real size (tens to hundreds of MB of parameters, 224x224 inputs) they are
# too slow to run on every device here.
NOT_IN_TABLE = {'GoogLeNet', 'ResNet50Layers', 'ResNet101Layers',
                'ResNet152Layers', 'VGG16Layers', 'VGG19Layers'}

# Known failures on a device, with the exact error, so that they show up as
# passing (strict xfail) when fixed: {(case, backend name): reason}.
KNOWN_FAILURES = {}


def test_every_link_is_in_the_table():
    links = {n for n in dir(L) if isinstance(getattr(L, n), type) and
             issubclass(getattr(L, n), chainer.Link)}
    assert links - NOT_IN_TABLE == {c.name for c in CASES}


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flatten(o)]
    return [out]


def _run(case, link, device, host_inputs, gys):
    """Outputs (host arrays) and parameter gradients (host, by name) of
    one forward and backward on ``device``."""
    link.cleargrads()
    xs = [device.send(x) for x in host_inputs]
    if case.reseed:
        numpy.random.seed(1)
    ys = [y for y in _flatten(case.call(link, *xs))
          if y.dtype.kind == 'f']
    loss = None
    for y, gy in zip(ys, gys(ys)):
        term = F.sum(y * device.send(gy))
        loss = term if loss is None else loss + term
    loss.backward()
    outs = [numpy.asarray(HOST.send(y.array)) for y in ys]
    grads = {name: None if p.grad is None
             else numpy.asarray(HOST.send(p.grad))
             for name, p in link.namedparams()}
    return outs, grads


def _build(case):
    numpy.random.seed(0)
    return case.make()


def _host_params(link):
    return {name: None if p.array is None
            else numpy.asarray(HOST.send(p.array)).copy()
            for name, p in link.namedparams()}


def _tolerance(dtype):
    return {'float16': dict(rtol=1e-2, atol=1e-2),
            'float32': dict(rtol=1e-4, atol=1e-5),
            'float64': dict(rtol=1e-10, atol=1e-12)}[numpy.dtype(dtype).name]


def _compare(actual, expected, what):
    assert actual.shape == expected.shape, what
    numpy.testing.assert_allclose(actual, expected, err_msg=what,
                                  **_tolerance(expected.dtype))


def pytest_generate_tests(metafunc):
    if 'case' in metafunc.fixturenames:
        metafunc.parametrize('case', [pytest.param(c, id=c.name)
                                      for c in CASES])


@pytest.fixture(params=DTYPES, ids=lambda d: numpy.dtype(d).name)
def dtype(request):
    """The default dtype the links are built and run in."""
    with chainer.using_config('dtype', request.param):
        yield request.param


def _xfail_known(request, case, device):
    reason = KNOWN_FAILURES.get((case.name, device.backend.name))
    if reason:
        request.node.add_marker(pytest.mark.xfail(strict=True,
                                                  reason=reason))


def test_forward_backward(request, case, device, dtype):
    _xfail_known(request, case, device)
    rng = numpy.random.RandomState(0)
    host_inputs = [make(rng, dtype) for make in case.inputs]
    gy_rng = numpy.random.RandomState(1)
    cache = []

    def gys(ys):
        # The same output gradients on both devices.
        if not cache:
            cache.extend(gy_rng.uniform(-1, 1, y.shape).astype(y.dtype)
                         for y in ys)
        return cache

    ref = _build(case)
    ref_outs, ref_grads = _run(case, ref, HOST, host_inputs, gys)
    link = _build(case)
    link.copyparams(ref)
    link.to_device(device)
    outs, grads = _run(case, link, device, host_inputs, gys)
    assert len(outs) == len(ref_outs)
    for k, (a, e) in enumerate(zip(outs, ref_outs)):
        _compare(a, e, '{} output {}'.format(case.name, k))
    assert grads.keys() == ref_grads.keys()
    for name, g in ref_grads.items():
        assert (grads[name] is None) == (g is None), name
        if g is not None:
            _compare(grads[name], g, '{} gradient of {}'.format(
                case.name, name))


def _prepared(case, device):
    """A link on ``device`` whose lazy parameters and state exist (after
    one forward)."""
    link = _build(case)
    link.to_device(device)
    rng = numpy.random.RandomState(0)
    xs = [device.send(make(rng, chainer.get_dtype()))
          for make in case.inputs]
    if case.reseed:
        numpy.random.seed(1)
    case.call(link, *xs)
    return link


def test_to_device_round_trip(request, case, device):
    _xfail_known(request, case, device)
    link = _prepared(case, HOST)
    before = _host_params(link)
    link.to_device(device)
    for name, p in link.namedparams():
        assert p.array is None or chainer.backend.get_device_from_array(
            p.array) == device, name
    link.to_device(HOST)
    after = _host_params(link)
    for name, a in before.items():
        numpy.testing.assert_array_equal(after[name], a, err_msg=name)


def test_npz_round_trip(request, case, device):
    _xfail_known(request, case, device)
    link = _prepared(case, device)
    buf = io.BytesIO()
    serializers.save_npz(buf, link)
    buf.seek(0)
    fresh = _prepared(case, HOST)
    for p in fresh.params():
        p.array[...] = 0
    serializers.load_npz(buf, fresh)
    expected = _host_params(link)
    for name, a in _host_params(fresh).items():
        numpy.testing.assert_array_equal(a, expected[name], err_msg=name)
