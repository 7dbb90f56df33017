"""The kernels of the plugin against chainer-core's references, without a
GPU: each kernel's CUDA source runs on the CPU, compiled by the C++
compiler (float32 and float64, and float16 as GCC's ``_Float16``; the
helpers it uses are plain C++ there).

The emulation of an elementwise kernel follows ``cupy.ElementwiseKernel``'s
rules: type placeholders bound by the arrays given, array parameters
broadcast together and read (or, for outputs, bound by reference) per
element ``i``, ``raw`` ones indexed freely, outputs either all given or all
allocated (a raw output never is). A raw kernel runs each CUDA thread as a
thread of its own, one block after another: ``__syncthreads`` is a barrier
of the block and a warp shuffle an exchange between barriers of the warp.
Elsewhere the kernels' CuPy is NumPy: the host is the device, and
``cupyx.errstate`` a block that records what it was asked.
"""
import contextlib
import ctypes
import hashlib
import re
import shutil
import subprocess
import types

import numpy
import pytest

from chainer_core._runtime import kernels as registry
from chainer_cuda import _capture
from chainer_cuda.graph import _Scalars
from chainer_cuda.kernels import (
    KERNELS, _build, array, basic_math, linalg, lstm, matmul, noise,
    normalization, pooling, softmax)
from kernel_cases import (
    CASES, OPTIMIZER_KERNELS, TOL, WIDE_ONLY, comparable, optimizer_cases,
    run_op)

COMPILER = shutil.which('g++') or shutil.which('c++')
pytestmark = pytest.mark.skipif(COMPILER is None,
                                reason='no C++ compiler here')

FIXED = {n: numpy.dtype(n) for n in ('float32', 'float64', 'bool',
                                     'int32', 'int64')}
# float16 is never a scalar parameter: it has no ctypes type.
C_TYPES = {numpy.dtype('float16'): ('_Float16', None),
           numpy.dtype('float32'): ('float', ctypes.c_float),
           numpy.dtype('float64'): ('double', ctypes.c_double),
           numpy.dtype('bool'): ('bool', ctypes.c_bool),
           numpy.dtype('int32'): ('int', ctypes.c_int),
           numpy.dtype('int64'): ('long long', ctypes.c_longlong)}
HEADER = r'''
#include <cmath>
#include <cstddef>
using namespace std;
#define __device__
template <typename V> struct Raw {
    V* p;
    V& operator[](ptrdiff_t k) const { return p[k]; }
};
'''
# CUDA's execution model for the raw kernels, on threads.
RAW_PRELUDE = r'''
#include <barrier>
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <vector>
using namespace std;
#define __global__
#define __device__
#define __shared__ static
struct cc_dim3 { unsigned x, y, z; };
static thread_local cc_dim3 threadIdx, blockIdx;
static cc_dim3 blockDim, gridDim;
static barrier<>* cc_block_barrier;
static vector<unique_ptr<barrier<>>> cc_warp_barriers;
static double cc_exchange[1024];
static void __syncthreads() { cc_block_barrier->arrive_and_wait(); }
template <typename V> static V __shfl_xor_sync(unsigned, V v, int o) {
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    barrier<>& b = *cc_warp_barriers[warp];
    cc_exchange[threadIdx.x] = (double)v;
    b.arrive_and_wait();
    V other = (V)cc_exchange[warp * 32 + (lane ^ o)];
    b.arrive_and_wait();
    return other;
}
static void cc_run(unsigned grid, unsigned block,
                   const function<void()>& kernel) {
    blockDim = {block, 1, 1};
    gridDim = {grid, 1, 1};
    for (unsigned b = 0; b < grid; ++b) {
        barrier<> block_barrier(block);
        cc_block_barrier = &block_barrier;
        cc_warp_barriers.clear();
        for (unsigned w = 0; w * 32 < block; ++w) {
            cc_warp_barriers.emplace_back(
                new barrier<>(min(32u, block - w * 32)));
        }
        vector<thread> threads;
        for (unsigned t = 0; t < block; ++t) {
            threads.emplace_back([=, &kernel]() {
                threadIdx = {t, 0, 0};
                blockIdx = {b, 0, 0};
                kernel();
            });
        }
        for (auto& thread : threads) thread.join();
    }
}
'''
RAW_SCALARS = {numpy.dtype('int64'): ctypes.c_longlong,
               numpy.dtype('int32'): ctypes.c_int,
               numpy.dtype('float64'): ctypes.c_double}


def _params(text):
    return [(w[0] == 'raw', w[-2], w[-1])
            for w in (part.split() for part in text.split(','))]


class Emulator:
    def __init__(self, folder):
        self.folder = folder
        self.libraries = {}

    def library(self, source, flags=()):
        key = hashlib.sha1(source.encode()).hexdigest()
        lib = self.libraries.get(key)
        if lib is None:
            cpp = self.folder / (key + '.cpp')
            so = self.folder / (key + '.so')
            cpp.write_text(source)
            proc = subprocess.run(
                [COMPILER, '-O1', '-shared', '-fPIC', '-ffp-contract=off']
                + list(flags) + [str(cpp), '-o', str(so)],
                capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr + source
            lib = self.libraries[key] = ctypes.CDLL(str(so))
        return lib

    def __call__(self, kernel, *args):
        ins, outs = _params(kernel.in_params), _params(kernel.out_params)
        assert len(args) in (len(ins), len(ins) + len(outs)), \
            'CuPy takes all outputs or none'
        given = list(args[len(ins):])
        bound = {}
        for (raw, t, _), a in zip(ins + outs, args):
            if isinstance(a, numpy.ndarray) and t not in FIXED:
                assert bound.setdefault(t, a.dtype) == a.dtype, t
        shape = numpy.broadcast_shapes(*[
            a.shape for (raw, _, _), a in zip(ins + outs, args)
            if isinstance(a, numpy.ndarray) and not raw])
        if not given:
            for raw, t, name in outs:
                assert not raw, 'a raw output must be given'
                given.append(numpy.empty(shape, FIXED.get(t) or bound[t]))
        # buffers keeps the arrays whose pointers are passed alive.
        decls, body, values, argtypes, buffers = [], [], [], [], []
        for k, ((raw, t, name), a) in enumerate(
                zip(ins + outs, list(args[:len(ins)]) + given)):
            out = k >= len(ins)
            dtype = FIXED.get(t) or bound[t]
            ctype, cscalar = C_TYPES[dtype]
            if not isinstance(a, numpy.ndarray):
                decls.append('{} {}'.format(ctype, name))
                values.append(cscalar(a))
                argtypes.append(cscalar)
                continue
            if out:
                assert raw or a.shape == shape, (name, a.shape, shape)
                assert a.flags.c_contiguous, name
                buf = a
            else:
                buf = numpy.ascontiguousarray(
                    a if raw else numpy.broadcast_to(a, shape), dtype)
            if raw:
                decls.append('{}* _p_{}'.format(ctype, name))
                body.append('Raw<{0}> {1} = {{_p_{1}}};'.format(ctype, name))
            else:
                decls.append('{}* _raw_{}'.format(ctype, name))
                body.append('{}{} {}{} = _raw_{}[i];'.format(
                    '' if out else 'const ', ctype, '&' if out else '', name,
                    name))
            buffers.append(buf)
            values.append(buf.ctypes.data_as(ctypes.c_void_p))
            argtypes.append(ctypes.c_void_p)
        source = '{}{}{}\nextern "C" void run(long long n, {}) {{\n' \
            '  for (ptrdiff_t i = 0; i < n; ++i) {{\n    {}\n    {};\n  }}\n' \
            '}}\n'.format(HEADER, ''.join(
                'typedef {} {};\n'.format(C_TYPES[d][0], t)
                for t, d in bound.items()), kernel.preamble,
                ', '.join(decls), '\n    '.join(body), kernel.operation)
        run = self.library(source).run
        run.argtypes = [ctypes.c_longlong] + argtypes
        run(int(numpy.prod(shape)), *values)
        return given[0] if len(given) == 1 else tuple(given)

    def raw(self, kernel, grid, block, args, shared_mem=0, **dtypes):
        source = kernel.source(**dtypes)
        match = re.search(r'extern "C" __global__ void (\w+)\((.*?)\)',
                          source, re.S)
        name, params = match.groups()
        names = [p.split()[-1].lstrip('*') for p in params.split(',')]
        source = '{}{}\nextern "C" void cc_launch(unsigned grid, ' \
            'unsigned block, {}) {{\n  cc_run(grid, block, [&]() {{ ' \
            '{}({}); }});\n}}\n'.format(RAW_PRELUDE, source, params, name,
                                        ', '.join(names))
        values, argtypes = [], []
        for a in args:
            if isinstance(a, numpy.ndarray):
                assert a.flags.c_contiguous, name
                values.append(a.ctypes.data_as(ctypes.c_void_p))
                argtypes.append(ctypes.c_void_p)
            else:
                cscalar = RAW_SCALARS[numpy.asarray(a).dtype]
                values.append(cscalar(a))
                argtypes.append(cscalar)
        launch = self.library(source, ('-std=c++20', '-pthread')).cc_launch
        launch.argtypes = [ctypes.c_uint, ctypes.c_uint] + argtypes
        launch(grid[0], block[0], *values)


class NumPyAsCuPy:
    """NumPy in CuPy's place: its functions, CuPy's ``asnumpy`` and
    ``random_sample(shape, dtype)``."""

    asnumpy = staticmethod(numpy.asarray)
    random = types.SimpleNamespace(
        random_sample=lambda shape, dtype: numpy.random.random_sample(
            shape).astype(dtype))

    def __getattr__(self, name):
        return getattr(numpy, name)


class Cupyx:
    """``cupyx`` with an ``errstate`` that records its settings."""

    def __init__(self):
        self.errstates = []

    @contextlib.contextmanager
    def errstate(self, **settings):
        self.errstates.append(settings)
        yield


@pytest.fixture(scope='module')
def emulated(tmp_path_factory):
    """The fake CuPy the kernels run with."""
    emulator = Emulator(tmp_path_factory.mktemp('kernels'))
    fake = NumPyAsCuPy()
    patch = pytest.MonkeyPatch()
    patch.setattr(_build.Elementwise, '__call__',
                  lambda kernel, *args: emulator(kernel, *args))
    patch.setattr(_build.Raw, '__call__',
                  lambda kernel, *args, **kwargs: emulator.raw(
                      kernel, *args, **kwargs))
    for module in (_build, array, basic_math, linalg, lstm, matmul, noise,
                   normalization, pooling, softmax):
        patch.setattr(module, 'cupy', lambda: fake)
    yield fake
    patch.undo()


@pytest.fixture
def cupyx(emulated):
    fake = Cupyx()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(linalg, 'cupyx', lambda: fake)
        yield fake


def _copies(args):
    return [a.copy() if isinstance(a, numpy.ndarray) else a for a in args]


def _compare(got, expected, dtype, what):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), what
        for g, e in zip(got, expected):
            _compare(g, e, dtype, what)
        return
    expected = numpy.asarray(expected)
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape), what
    numpy.testing.assert_allclose(got, expected, equal_nan=True,
                                  err_msg=what, **TOL[dtype])


DTYPES = (numpy.float16, numpy.float32, numpy.float64)


# The references' own warnings (inf - inf, the mean of an empty batch).
@pytest.mark.filterwarnings('ignore::RuntimeWarning')
@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_matches_reference(emulated, cupyx, name, dtype):
    rng = numpy.random.RandomState(1)
    for i, args in enumerate(CASES[name](rng, dtype)):
        what = '{} case {}'.format(name, i)
        mine, host = _copies(args), _copies(args)
        if dtype == numpy.float16 and name in WIDE_ONLY:
            assert KERNELS[name](*mine) is NotImplemented, what
            continue
        with numpy.errstate(all='ignore'):
            try:
                expected = registry.get_spec(name).reference(numpy, *host)
            except Exception as e:
                with pytest.raises(type(e)):
                    run_op(name, emulated, mine)
                continue
            got = run_op(name, emulated, mine)
        assert got is not NotImplemented, what
        _compare(comparable(name, got), comparable(name, expected), dtype,
                 what)
        for a, h in zip(mine, host):
            if isinstance(h, numpy.ndarray):
                _compare(a, h, dtype, what + ' (inputs after the call)')


@pytest.mark.parametrize('dtype, state_dtype', [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64),
    (numpy.float16, numpy.float32)], ids=['float32', 'float64',
                                         'float16-float32-state'])
@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_update_matches_reference(emulated, name, dtype, state_dtype):
    rng = numpy.random.RandomState(2)
    for i, args in enumerate(optimizer_cases(name, rng, dtype,
                                              state_dtype)):
        # sgd has no state: float16 is the reference's.
        if name == 'sgd_update' and dtype == numpy.float16:
            continue
        what = '{} case {}'.format(name, i)
        mine, host = _copies(args), _copies(args)
        assert KERNELS[name](*mine) is None, what
        with numpy.errstate(all='ignore'):
            registry.get_spec(name).reference(numpy, *host)
        for a, h in zip(mine, host):
            if isinstance(h, numpy.ndarray):
                _compare(a, h, h.dtype.type, what)


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', ['linear', 'matmul'])
def test_products_in_a_graph_step(emulated, name, dtype):
    rng = numpy.random.RandomState(3)
    for i, args in enumerate(CASES[name](rng, dtype)):
        what = '{} case {}'.format(name, i)
        assert KERNELS[name](*args) is NotImplemented, what
        with _capture.use(object()):
            got = KERNELS[name](*args)
        with numpy.errstate(all='ignore'):
            expected = registry.get_spec(name).reference(numpy, *args)
        _compare(got, expected, dtype, what)


@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_updates_in_a_graph_step_read_scalars_from_the_device(emulated,
                                                               name):
    rng = numpy.random.RandomState(4)
    for i, args in enumerate(optimizer_cases(name, rng, numpy.float32,
                                              numpy.float32)):
        what = '{} case {}'.format(name, i)
        mine, host = _copies(args), _copies(args)
        scalars = _Scalars(numpy)
        scalars.start('eager')
        with _capture.use(scalars):
            assert KERNELS[name](*mine) is None, what
        registry.get_spec(name).reference(numpy, *host)
        for a, h in zip(mine, host):
            if isinstance(h, numpy.ndarray):
                _compare(a, h, numpy.float32, what)
        (kernel_name, flags), = scalars.signature
        kernel, = [k for k in _build.DEFINITIONS if k.name == kernel_name]
        floats = scalars.values
        assert len(floats) == kernel.in_params.count('float64'), what
        assert floats[0] == next(a for a in args if isinstance(a, float)), \
            what

        # Recording launches nothing: the arrays stay as they are.
        before = _copies(mine)
        scalars.start('record')
        with _capture.use(scalars):
            KERNELS[name](*mine)
        assert scalars.values == floats, what
        assert scalars.signature == [(kernel_name, flags)], what
        for a, b in zip(mine, before):
            if isinstance(a, numpy.ndarray):
                numpy.testing.assert_array_equal(a, b, err_msg=what)


def test_graph_step_refuses_updates_left_to_the_reference(emulated):
    p = numpy.ones(3, numpy.float16)
    assert KERNELS['sgd_update'](p, p, 0.1) is NotImplemented
    with _capture.use(_Scalars(numpy)):
        with pytest.raises(_capture.GraphCaptureError, match='sgd_update'):
            KERNELS['sgd_update'](p, p, 0.1)


def test_dropout(emulated):
    x = numpy.random.RandomState(0).rand(200, 300).astype(numpy.float32)
    y, mask = KERNELS['dropout'](x, 0.25, None)
    kept = mask != 0
    assert 0.7 < kept.mean() < 0.8
    numpy.testing.assert_allclose(mask[kept], 1 / 0.75, rtol=1e-6)
    numpy.testing.assert_allclose(y, x * mask, rtol=1e-6)


@pytest.fixture
def host_copies(emulated, monkeypatch):
    """The arrays the kernels copy to the host."""
    copies = []

    def asnumpy(a):
        copies.append(a)
        return numpy.asarray(a)

    monkeypatch.setattr(NumPyAsCuPy, 'asnumpy', staticmethod(asnumpy))
    return copies


def test_finite_matrices_stay_and_raise_as_numpy(cupyx, host_copies):
    a = numpy.eye(3, dtype=numpy.float32) * 2
    KERNELS['inv'](a)
    KERNELS['cholesky'](a)
    assert cupyx.errstates == [{'linalg': 'raise'}] * 2
    assert host_copies == []
    # Raised inside errstate(linalg='raise'): how CuPy reports them too.
    with pytest.raises(numpy.linalg.LinAlgError):
        KERNELS['inv'](numpy.ones((2, 2), numpy.float32))
    with pytest.raises(numpy.linalg.LinAlgError):
        KERNELS['cholesky'](-a)
    assert len(cupyx.errstates) == 4 and host_copies == []
    assert KERNELS['fft'](a, a, False) is NotImplemented
    assert KERNELS['decorrelated_batch_normalization'](a, 1, 2e-5) \
        is NotImplemented
    assert host_copies == []


@pytest.mark.parametrize('value', [numpy.nan, numpy.inf, -numpy.inf])
def test_special_values_go_to_the_host(cupyx, host_copies, value):
    a = numpy.eye(3, dtype=numpy.float32) * 2
    a[1, 2] = value
    with numpy.errstate(all='ignore'):
        KERNELS['inv'](a)
        KERNELS['fft'](a, a, True)
        try:
            KERNELS['cholesky'](a)
        except numpy.linalg.LinAlgError:
            pass
        try:
            KERNELS['decorrelated_batch_normalization'](a, 1, 2e-5)
        except numpy.linalg.LinAlgError:
            pass
    assert len(host_copies) == 5 and cupyx.errstates == []


def test_declines(emulated):
    x = numpy.ones((2, 3, 4), numpy.float32)
    assert KERNELS['pad'](x, ((1, 1),) * 3, 'constant', 0) \
        is NotImplemented
    assert KERNELS['pad'](x.astype(numpy.int32), ((1, 1),) * 3, 'wrap',
                          0) is NotImplemented
    assert KERNELS['pow'](x, 2.0) is NotImplemented
    assert KERNELS['pow'](x, numpy.longdouble(0.5)) is NotImplemented
    assert KERNELS['pow'](x.astype(numpy.float16), 0.5) is NotImplemented
    assert KERNELS['pow'](numpy.float32(2), x) is NotImplemented
    assert KERNELS['max_pooling_nd'](x.reshape(1, 1, 2, 3, 2, 2), (1,) * 4,
                                     (1,) * 4, (0,) * 4, True) \
        is NotImplemented
    assert KERNELS['inv'](x.astype(numpy.int32)) is NotImplemented


def test_pad_gives_a_new_array(emulated):
    x = numpy.ones((2, 3), numpy.float32)
    y = KERNELS['pad'](x, ((0, 0), (0, 0)), 'wrap', 0)
    assert y is not x and numpy.array_equal(y, x)
