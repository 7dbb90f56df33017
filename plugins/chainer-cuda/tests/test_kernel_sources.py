"""Every kernel source of the plugin compiles, for every dtype it takes.

NVRTC compiles CUDA C without a GPU, so this runs wherever CuPy, NVRTC and
the CUDA headers are installed (CuPy's own headers come with it), and skips
elsewhere. The elementwise kernels are wrapped the way CuPy wraps them:
type placeholders as typedefs, array parameters read into (or bound by
reference to) variables of their names, scalars as kernel arguments, the
loop index ``i``.
"""
import glob
import itertools
import os
import re

import numpy
import pytest

from chainer_cuda.kernels import _build

_CTYPES = {'float16': 'float16', 'float32': 'float', 'float64': 'double',
           'bool': 'bool', 'int32': 'int', 'int64': 'long long'}


def _nvrtc_setup():
    try:
        import cupy
        from cupy_backends.cuda.libs import nvrtc
        nvrtc.getVersion()
    except Exception as e:
        pytest.skip('CuPy with NVRTC is needed to compile kernels: {}'
                    .format(e))
    include = os.path.join(os.path.dirname(cupy.__file__), '_core',
                           'include')
    cccl = os.path.join(include, 'cupy', '_cccl')
    headers = [os.environ.get('CUDA_PATH', '/usr/local/cuda') + '/include']
    headers += glob.glob(os.path.join(os.path.dirname(os.path.dirname(
        cupy.__file__)), 'nvidia', 'cu*', 'include'))
    headers = [h for h in headers
               if os.path.exists(os.path.join(h, 'cuda_fp16.h'))]
    if not headers:
        pytest.skip('the CUDA headers (cuda_fp16.h) are not installed '
                    '(set CUDA_PATH, or pip install nvidia-cuda-runtime)')
    options = ['-I' + include, '-I' + os.path.join(cccl, 'libcudacxx'),
               '-I' + os.path.join(cccl, 'thrust'),
               '-I' + os.path.join(cccl, 'cub'), '-I' + headers[0],
               '--gpu-architecture=compute_90', '-std=c++17']
    return nvrtc, options


def _compile(nvrtc, options, source, name):
    prog = nvrtc.createProgram(source, name + '.cu', [], [])
    try:
        try:
            nvrtc.compileProgram(prog, options)
        except nvrtc.NVRTCError:
            pytest.fail('{} does not compile:\n{}\n{}'.format(
                name, nvrtc.getProgramLog(prog), source))
    finally:
        nvrtc.destroyProgram(prog)


def _params(text):
    out = []
    for part in text.split(','):
        words = part.split()
        raw = words[0] == 'raw'
        out.append((raw, words[-2], words[-1]))
    return out


def elementwise_source(kernel, types):
    """The CUDA source CuPy would build for ``kernel`` with the type
    placeholders bound as ``types`` says."""
    def ctype(t):
        return _CTYPES[types.get(t, t)]

    args, body = [], []
    for params, is_out in ((_params(kernel.in_params), False),
                           (_params(kernel.out_params), True)):
        for raw, t, name in params:
            if raw:
                args.append('CArray<{}, 1, true, true> {}'.format(
                    ctype(t), name))
            elif t in _CTYPES and not is_out:
                args.append('const {} {}'.format(ctype(t), name))
            else:
                args.append('CArray<{}, 1, true, true> _raw_{}'.format(
                    ctype(t), name))
                body.append('{}{} {}{} = _raw_{}[_ind.get()];'.format(
                    '' if is_out else 'const ', ctype(t),
                    '&' if is_out else '', name, name))
    typedefs = ''.join('typedef {} {};\n'.format(_CTYPES[d], t)
                       for t, d in types.items())
    return '''#include <cupy/complex.cuh>
#include <cupy/carray.cuh>
#include <cupy/atomics.cuh>
#include <cupy/math_constants.h>
#include <cupy/float16.cuh>
{typedefs}{preamble}
extern "C" __global__ void {name}({args}, CIndexer<1> _ind) {{
  CUPY_FOR(i, _ind.size()) {{
    _ind.set(i);
    {body}
    {operation};
  }}
}}
'''.format(typedefs=typedefs, preamble=kernel.preamble, name=kernel.name,
           args=', '.join(args), body='\n    '.join(body),
           operation=kernel.operation)


def _placeholders(kernel):
    found = []
    for _, t, _ in _params(kernel.in_params) + _params(kernel.out_params):
        if t not in _CTYPES and t not in found:
            found.append(t)
    return found


def _elementwise_cases():
    for kernel in _build.DEFINITIONS:
        if kernel.kind != 'elementwise':
            continue
        names = _placeholders(kernel)
        # Every placeholder in every float dtype, and each combination
        # with one of them float16 and the others float32 (mixed
        # precision): the rest of the combinations add nothing new.
        combos = {tuple([d] * len(names))
                  for d in ('float16', 'float32', 'float64')}
        for k in range(len(names)):
            combos.add(tuple('float16' if j == k else 'float32'
                             for j in range(len(names))))
        for combo in sorted(combos):
            yield pytest.param(kernel, dict(zip(names, combo)),
                               id='{}-{}'.format(kernel.name,
                                                 '-'.join(combo)))


def _raw_cases():
    for kernel in _build.DEFINITIONS:
        if kernel.kind != 'raw':
            continue
        names = sorted(kernel.types)
        for combo in itertools.product(*(kernel.types[n] for n in names)):
            yield pytest.param(kernel, dict(zip(names, combo)), id='{}-{}'
                               .format(kernel.name, '-'.join(
                                   numpy.dtype(d).name for d in combo)))


@pytest.fixture(scope='module')
def nvrtc_options():
    return _nvrtc_setup()


@pytest.mark.parametrize('kernel, types', list(_elementwise_cases()))
def test_elementwise_kernel_compiles(nvrtc_options, kernel, types):
    nvrtc, options = nvrtc_options
    _compile(nvrtc, options, elementwise_source(kernel, types), kernel.name)


@pytest.mark.parametrize('kernel, types', list(_raw_cases()))
def test_raw_kernel_compiles(nvrtc_options, kernel, types):
    nvrtc, options = nvrtc_options
    source = kernel.source(**types)
    assert re.search(r'extern "C" __global__ void {}\('.format(kernel.name),
                     source), 'the kernel is not named as it is looked up'
    _compile(nvrtc, options, source, kernel.name)


def test_every_kernel_is_checked():
    kinds = {k.kind for k in _build.DEFINITIONS}
    assert kinds == {'elementwise', 'raw'}
    assert all(k.name.startswith('chainer_cuda_')
               for k in _build.DEFINITIONS)
    # An empty list of dtypes would leave a raw kernel uncompiled here.
    assert all(all(k.types.values()) for k in _build.DEFINITIONS
               if k.kind == 'raw')
