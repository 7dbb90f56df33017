"""The fused optimizer updates (sgd_update, momentum_sgd_update,
adam_update): the core's NumPy reference bit for bit, in place, with the
reference as fallback under 'auto' and an error naming the op under
'always'; and optimizers stepping on @intel64 as on @numpy."""
import numpy
import pytest

import chainer_core
import chainer_core.functions as F
from chainer_core._runtime import kernels as registry
from chainer_core import optimizers

import chainer_mkldnn
from chainer_mkldnn import _kernels, _native

UPDATES = ('sgd_update', 'momentum_sgd_update', 'adam_update')
# Odd sizes leave a tail after the vector loop; 300000 elements run on
# OpenMP's threads (CHAINER_MKLDNN_PARALLEL_MIN_WORK).
SIZES = [(1,), (7,), (3, 343), (300, 1000)]

ADAM = {
    'adam': dict(vhat=False, wd=0.0, bounds=None),
    'adamw': dict(vhat=False, wd=0.1, bounds=None),
    'amsgrad': dict(vhat=True, wd=0.0, bounds=None),
    'adabound': dict(vhat=False, wd=0.0, bounds=(0.02, 0.05)),
    'amsbound': dict(vhat=True, wd=0.01, bounds=(0.02, 0.05)),
}


class _Recorder:
    """The extension, recording which of its functions are called."""

    def __init__(self, lib):
        self._lib = lib
        self.calls = []

    def __getattr__(self, name):
        fn = getattr(self._lib, name)

        def call(*args, **kwargs):
            self.calls.append(name)
            return fn(*args, **kwargs)
        return call


@pytest.fixture
def fused(device, monkeypatch):
    recorder = _Recorder(_native.lib())
    monkeypatch.setattr(_kernels, '_C', recorder)
    return recorder.calls


def _args(name, shape, dtype, rng, case='adam', state_dtype=None):
    """(arrays, scalars) of a call of kernel ``name``; state arrays of
    ``state_dtype`` (default: dtype)."""
    state_dtype = state_dtype or dtype
    param = rng.uniform(-1, 1, shape).astype(dtype)
    grad = rng.uniform(-1, 1, shape).astype(dtype)
    if name == 'sgd_update':
        return [param, grad], (0.3,)
    if name == 'momentum_sgd_update':
        v = rng.uniform(-0.1, 0.1, shape).astype(state_dtype)
        return [param, grad, v], (0.1, 0.9)
    c = ADAM[case]
    m = rng.uniform(-0.1, 0.1, shape).astype(state_dtype)
    v = rng.uniform(0, 0.1, shape).astype(state_dtype)
    vhat = rng.uniform(0, 0.1, shape).astype(state_dtype) if c['vhat'] \
        else None
    lower, upper = c['bounds'] or (None, None)
    scalars = (0.03, 0.9, 0.999, 1e-3, 0.5, c['wd'], lower, upper)
    return [param, grad, m, v, vhat], scalars


def _send(device, arrays):
    return [None if a is None else device.send(a.copy()) for a in arrays]


def _reference(name, arrays, scalars):
    expected = [None if a is None else a.copy() for a in arrays]
    assert registry.get_spec(name).reference(numpy, *expected,
                                             *scalars) is None
    return expected


def _call(name, mode, arrays, scalars):
    with chainer_core.using_config('use_ideep', mode):
        return registry.lookup(name, arrays[0])(*arrays, *scalars)


def _assert_equal(actual, expected):
    for a, e in zip(actual, expected):
        if e is None:
            assert a is None
        else:
            assert a.dtype == e.dtype
            numpy.testing.assert_array_equal(a, e)


CASES = [('sgd_update', None), ('momentum_sgd_update', None)] + [
    ('adam_update', c) for c in sorted(ADAM)]


@pytest.mark.parametrize('shape', SIZES, ids=lambda s: 'x'.join(map(str, s)))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('name, case', CASES,
                         ids=['{}-{}'.format(n, c) if c else n
                              for n, c in CASES])
@pytest.mark.parametrize('mode', ['auto', 'always'])
def test_fused_is_the_reference_in_place(name, case, dtype, shape, mode,
                                         device, fused, rng):
    arrays, scalars = _args(name, shape, dtype, rng, case or 'adam')
    expected = _reference(name, arrays, scalars)
    actual = _send(device, arrays)
    targets = list(actual)
    assert _call(name, mode, actual, scalars) is None
    assert fused == [name]
    assert all(a is t for a, t in zip(actual, targets))
    assert all(a is None or type(a) is chainer_mkldnn.mdarray
               for a in actual)
    # The same operations rounded alike: equal, not only close.
    _assert_equal(actual, expected)


def test_registered_for_mkldnn(device):
    for name in UPDATES:
        impl = registry.get_spec(name).implementations['mkldnn']
        assert impl == (_kernels.KERNELS[name], 'chainer-mkldnn')


def test_never_runs_the_reference(device, fused, rng):
    for name in UPDATES:
        arrays, scalars = _args(name, (4, 5), numpy.float32, rng)
        expected = _reference(name, arrays, scalars)
        actual = _send(device, arrays)
        _call(name, 'never', actual, scalars)
        _assert_equal(actual, expected)
    assert fused == []


@pytest.mark.parametrize('name', UPDATES)
def test_nan_propagates_as_in_the_reference(name, device, fused, rng):
    case = 'amsbound' if name == 'adam_update' else 'adam'
    arrays, scalars = _args(name, (2, 9), numpy.float32, rng, case)
    arrays[1][0, :3] = numpy.nan
    arrays[-1 if name != 'adam_update' else 4][1, 2] = numpy.nan
    expected = _reference(name, arrays, scalars)
    actual = _send(device, arrays)
    _call(name, 'always', actual, scalars)
    assert fused == [name]
    _assert_equal(actual, expected)


def test_strided_grad_is_read_through_a_copy(device, fused, rng):
    arrays, scalars = _args('adam_update', (6, 5), numpy.float32, rng,
                            'amsbound')
    arrays[1] = numpy.asfortranarray(arrays[1])
    expected = _reference('adam_update', arrays, scalars)
    actual = _send(device, arrays)
    actual[1] = device.send(numpy.asfortranarray(arrays[1]))
    assert not actual[1].flags.c_contiguous
    _call('adam_update', 'always', actual, scalars)
    assert fused == ['adam_update']
    _assert_equal(actual, expected)


def _unsupported_cases(rng):
    """(name, arrays, scalars, the argument named, words of the message)
    of calls the fused loops do not take."""
    cases = []
    for name in UPDATES:
        arrays, scalars = _args(name, (3, 4), numpy.float16, rng,
                                state_dtype=numpy.float32
                                if name == 'adam_update' else None)
        cases.append((name, arrays, scalars,
                      ['param is float16', 'float32 or float64']))
    arrays, scalars = _args('sgd_update', (3, 4), numpy.float32, rng)
    arrays[1] = arrays[1].astype(numpy.float64)
    cases.append(('sgd_update', arrays, scalars,
                  ['grad is float64', 'expected float32']))
    arrays, scalars = _args('momentum_sgd_update', (3, 4), numpy.float32,
                            rng)
    arrays[1] = arrays[1][:, :1]
    cases.append(('momentum_sgd_update', arrays, scalars,
                  ['grad has shape (3, 1)', 'expected (3, 4)']))
    arrays, scalars = _args('adam_update', (3, 4), numpy.float64, rng,
                            'amsgrad')
    arrays[4] = arrays[4].astype(numpy.float32)
    cases.append(('adam_update', arrays, scalars,
                  ['vhat is float32', 'expected float64']))
    return cases


@pytest.mark.parametrize('mode', ['auto', 'always'])
@pytest.mark.parametrize('index', range(6))
def test_falls_back_to_the_reference(index, mode, device, fused, rng):
    # The reference broadcasts the (3, 1) gradient of case 4.
    name, arrays, scalars, _ = _unsupported_cases(rng)[index]
    expected = _reference(name, arrays, scalars)
    actual = _send(device, arrays)
    _call(name, mode, actual, scalars)
    assert fused == [name]   # tried, refused, then the reference
    for a, e in zip(actual, expected):
        if e is not None:
            assert a.dtype == e.dtype
            numpy.testing.assert_array_equal(a, e)


@pytest.mark.parametrize('index', range(6))
def test_fused_loop_refuses_naming_op_and_argument(index, device, rng):
    # What the kernel catches before it runs the reference.
    name, arrays, scalars, words = _unsupported_cases(rng)[index]
    actual = _send(device, arrays)
    before = [None if a is None else a.copy() for a in actual]
    with pytest.raises(chainer_mkldnn.UnsupportedError) as info:
        _kernels.KERNELS[name].fast(*actual, *scalars)
    message = str(info.value)
    assert message.startswith(name + ': '), message
    for w in words:
        assert w in message, message
    # Nothing was written before the refusal.
    _assert_equal(actual, before)


def test_state_must_be_contiguous(device, fused, rng):
    arrays, scalars = _args('momentum_sgd_update', (4, 6), numpy.float32,
                            rng)
    actual = _send(device, arrays)
    actual[2] = device.send(numpy.zeros((6, 4), numpy.float32)).T
    with pytest.raises(chainer_mkldnn.UnsupportedError,
                       match='^momentum_sgd_update: .*v must be '
                             'C-contiguous'):
        _kernels.KERNELS['momentum_sgd_update'].fast(*actual, *scalars)
    v = actual[2]
    _call('momentum_sgd_update', 'auto', actual, scalars)
    # The reference updated the strided v itself.
    numpy.testing.assert_array_equal(v, -0.1 * arrays[1])


def test_bounds_come_in_pairs(device):
    lib = _native.lib()
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match='^adam_update: lower and upper'):
        lib.adam_update('adam_update', x, x, x.copy(), x.copy(), None, 0.1,
                        0.9, 0.9, 1e-8, 1.0, 0.0, 0.1, None)


def test_empty_arrays(device, fused):
    for name in UPDATES:
        arrays, scalars = _args(name, (0, 3), numpy.float32,
                                numpy.random.RandomState(0))
        actual = _send(device, arrays)
        _call(name, 'always', actual, scalars)
        assert actual[0].shape == (0, 3)


# -- optimizers on @intel64


class MLP(chainer_core.Link):
    """Two linear layers; the parameters keep the dtype given (L.Linear
    would make them the configured dtype)."""

    def __init__(self, dtype=numpy.float32):
        super().__init__()
        rng = numpy.random.RandomState(2)
        with self.init_scope():
            for name, shape in (('W1', (7, 5)), ('b1', (7,)),
                                ('W2', (3, 7)), ('b2', (3,))):
                setattr(self, name, chainer_core.Parameter(
                    rng.randn(*shape).astype(dtype)))

    def __call__(self, x):
        h = F.relu(F.linear(x, self.W1, self.b1))
        return F.linear(h, self.W2, self.b2)


OPTIMIZERS = {
    'sgd': lambda: optimizers.SGD(lr=0.1),
    'momentum': lambda: optimizers.MomentumSGD(lr=0.1, momentum=0.8),
    'adam': lambda: optimizers.Adam(alpha=0.05),
    'adamw': lambda: optimizers.AdamW(alpha=0.05, weight_decay_rate=0.1),
    'amsbound': lambda: optimizers.AMSBound(alpha=0.05, final_lr=0.1,
                                            gamma=0.5),
}


def _grads(model, step, dtype):
    rng = numpy.random.RandomState(step)
    return {n: rng.uniform(-1, 1, p.shape).astype(dtype)
            for n, p in sorted(model.namedparams())}


@pytest.mark.parametrize('opt', sorted(OPTIMIZERS))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_optimizer_steps_equal_numpy(opt, dtype, device, fused):
    models = {}
    for spec in ('@numpy', '@intel64'):
        model = MLP(dtype)
        model.to_device(spec)
        optimizer = OPTIMIZERS[opt]().setup(model)
        with chainer_core.using_config('use_ideep', 'auto'):
            for step in range(4):
                for n, g in _grads(model, step, dtype).items():
                    param = dict(model.namedparams())[n]
                    param.grad = param.device.send(g)
                optimizer.update()
        models[spec] = model
    kernel = {'sgd': 'sgd_update', 'momentum': 'momentum_sgd_update'}.get(
        opt, 'adam_update')
    assert fused == [kernel] * 4 * 4   # each of 4 parameters, 4 steps
    expected = dict(models['@numpy'].namedparams())
    for n, p in models['@intel64'].namedparams():
        assert type(p.array) is chainer_mkldnn.mdarray
        numpy.testing.assert_array_equal(p.array, expected[n].array)


def test_float16_adam_falls_back_and_equals_numpy(device, fused):
    models = {}
    for spec in ('@numpy', '@intel64'):
        model = MLP(numpy.float16)
        model.to_device(spec)
        optimizer = optimizers.Adam(alpha=0.01).setup(model)
        with chainer_core.using_config('use_ideep', 'auto'):
            for step in range(3):
                for n, g in _grads(model, step, numpy.float16).items():
                    param = dict(model.namedparams())[n]
                    param.grad = param.device.send(g)
                optimizer.update()
        models[spec] = model
    assert fused and set(fused) == {'adam_update'}   # tried and refused
    expected = dict(models['@numpy'].namedparams())
    for n, p in models['@intel64'].namedparams():
        assert p.dtype == numpy.float16
        assert p.update_rule.state['m'].dtype == numpy.float32
        numpy.testing.assert_array_equal(p.array, expected[n].array)


@pytest.mark.parametrize('opt', ['momentum', 'amsbound'])
def test_training_step_close_to_numpy(opt, device):
    # Forward and backward through oneDNN too: gradients differ from
    # NumPy's in the last bits, so the parameters are close, not equal.
    rng = numpy.random.RandomState(0)
    x = rng.randn(8, 5).astype(numpy.float32)
    t = rng.randn(8, 3).astype(numpy.float32)
    results = {}
    for spec in ('@numpy', '@intel64'):
        model = MLP()
        model.to_device(spec)
        optimizer = OPTIMIZERS[opt]().setup(model)
        xd, td = model.device.send(x), model.device.send(t)
        with chainer_core.using_config('use_ideep', 'auto'):
            for _ in range(5):
                optimizer.update(
                    lambda: F.mean_squared_error(model(xd), td))
        results[spec] = {n: numpy.asarray(p.array)
                         for n, p in model.namedparams()}
    for n, a in results['@intel64'].items():
        numpy.testing.assert_allclose(a, results['@numpy'][n], rtol=1e-5,
                                      atol=1e-5)
