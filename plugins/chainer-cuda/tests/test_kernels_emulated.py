"""The kernels of the plugin against chainer-core's references, without a
GPU: each kernel's CUDA source runs on the CPU, compiled by the C++
compiler (float32 and float64; the helpers it uses are plain C++ there).

The emulation of an elementwise kernel follows ``cupy.ElementwiseKernel``'s
rules: type placeholders bound by the arrays given, array parameters
broadcast together and read (or, for outputs, bound by reference) per
element ``i``, ``raw`` ones indexed freely, outputs either all given or all
allocated (a raw output never is). A raw kernel runs each CUDA thread as a
thread of its own, one block after another: ``__syncthreads`` is a barrier
of the block and a warp shuffle an exchange between barriers of the warp.
Elsewhere the kernels' CuPy is NumPy.
"""
import ctypes
import hashlib
import re
import shutil
import subprocess
import types

import numpy
import pytest

from chainer_core._runtime import kernels as registry
from chainer_cuda.kernels import (
    KERNELS, _build, lstm, noise, normalization, softmax)
from kernel_cases import CASES, OPTIMIZER_KERNELS, TOL, optimizer_cases

COMPILER = shutil.which('g++') or shutil.which('c++')
pytestmark = pytest.mark.skipif(COMPILER is None,
                                reason='no C++ compiler here')

FIXED = {n: numpy.dtype(n) for n in ('float32', 'float64', 'bool',
                                     'int64')}
C_TYPES = {numpy.dtype('float32'): ('float', ctypes.c_float),
           numpy.dtype('float64'): ('double', ctypes.c_double),
           numpy.dtype('bool'): ('bool', ctypes.c_bool),
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


@pytest.fixture(scope='module')
def emulated(tmp_path_factory):
    emulator = Emulator(tmp_path_factory.mktemp('kernels'))
    fake = types.SimpleNamespace(
        ascontiguousarray=numpy.ascontiguousarray,
        empty_like=numpy.empty_like, zeros_like=numpy.zeros_like,
        concatenate=numpy.concatenate, empty=numpy.empty,
        asarray=numpy.asarray,
        random=types.SimpleNamespace(
            random_sample=lambda shape, dtype: numpy.random.random_sample(
                shape).astype(dtype)))
    patch = pytest.MonkeyPatch()
    patch.setattr(_build.Elementwise, '__call__',
                  lambda kernel, *args: emulator(kernel, *args))
    patch.setattr(_build.Raw, '__call__',
                  lambda kernel, *args, **kwargs: emulator.raw(
                      kernel, *args, **kwargs))
    for module in (_build, lstm, noise, normalization, softmax):
        patch.setattr(module, 'cupy', lambda: fake)
    yield
    patch.undo()


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


DTYPES = (numpy.float32, numpy.float64)


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_matches_reference(emulated, name, dtype):
    rng = numpy.random.RandomState(1)
    for i, args in enumerate(CASES[name](rng, dtype)):
        what = '{} case {}'.format(name, i)
        mine, host = _copies(args), _copies(args)
        got = KERNELS[name](*mine)
        assert got is not NotImplemented, what
        with numpy.errstate(all='ignore'):
            expected = registry.get_spec(name).reference(numpy, *host)
        _compare(got, expected, dtype, what)
        for a, h in zip(mine, host):
            if isinstance(h, numpy.ndarray):
                _compare(a, h, dtype, what + ' (inputs after the call)')


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_update_matches_reference(emulated, name, dtype):
    rng = numpy.random.RandomState(2)
    for i, args in enumerate(optimizer_cases(name, rng, dtype, dtype)):
        what = '{} case {}'.format(name, i)
        mine, host = _copies(args), _copies(args)
        assert KERNELS[name](*mine) is None, what
        with numpy.errstate(all='ignore'):
            registry.get_spec(name).reference(numpy, *host)
        for a, h in zip(mine, host):
            if isinstance(h, numpy.ndarray):
                _compare(a, h, dtype, what)


def test_dropout(emulated):
    x = numpy.random.RandomState(0).rand(200, 300).astype(numpy.float32)
    y, mask = KERNELS['dropout'](x, 0.25, None)
    kept = mask != 0
    assert 0.7 < kept.mean() < 0.8
    numpy.testing.assert_allclose(mask[kept], 1 / 0.75, rtol=1e-6)
    numpy.testing.assert_allclose(y, x * mask, rtol=1e-6)
