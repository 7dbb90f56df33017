"""CuPy kernels that are made the first time they run.

Kernel modules define their kernels at import, which must not import CuPy
(discovery imports them on machines without it); CuPy compiles each one per
dtype and GPU the first time it is called. :data:`DEFINITIONS` lists every
kernel, so that a test can compile their sources.
"""
import numpy

from chainer_cuda import _probe

FLOATS = (numpy.dtype(numpy.float16), numpy.dtype(numpy.float32),
          numpy.dtype(numpy.float64))
# The kernels written as RawKernels take these; float16 goes to the
# reference (its arithmetic there is float32 anyway).
WIDE_FLOATS = FLOATS[1:]

# Values are computed in float for float16 and float32 arrays and in double
# for float64 ones (``C``). NumPy's maximum and minimum propagate NaN, and
# so do these, so that special values come out as the references give them.
PREAMBLE = r'''
template <typename T> struct cc_wide { typedef float type; };
template <> struct cc_wide<double> { typedef double type; };
template <typename T> __device__ T cc_max(T a, T b) {
    return (a >= b || isnan(a)) ? a : b;
}
template <typename T> __device__ T cc_min(T a, T b) {
    return (a <= b || isnan(a)) ? a : b;
}
'''

DEFINITIONS = []


def cupy():
    return _probe.require()


def cupyx():
    """CuPy's ``cupyx`` (its ``errstate`` turns cuSOLVER's status into
    exceptions), imported once CuPy is known to be usable."""
    cupy()
    import cupyx
    return cupyx


def float_dtype(*arrays):
    """The dtype shared by ``arrays`` (None entries skipped) when it is a
    float dtype of :data:`FLOATS`, else None."""
    dtypes = {a.dtype for a in arrays if a is not None}
    if len(dtypes) != 1:
        return None
    dtype = dtypes.pop()
    return dtype if dtype in FLOATS else None


class Elementwise:
    """A ``cupy.ElementwiseKernel``; ``operation`` may use ``C``, the
    compute type of the type placeholder ``wide``, and the helpers of
    :data:`PREAMBLE`."""

    kind = 'elementwise'

    def __init__(self, name, in_params, out_params, operation, preamble='',
                 wide='T'):
        self.name = 'chainer_cuda_' + name
        self.in_params = in_params
        self.out_params = out_params
        self.operation = 'typedef cc_wide<{}>::type C;\n{}'.format(
            wide, operation)
        self.preamble = PREAMBLE + preamble
        self._kernel = None
        DEFINITIONS.append(self)

    def __call__(self, *args, **kwargs):
        kernel = self._kernel
        if kernel is None:
            kernel = self._kernel = cupy().ElementwiseKernel(
                self.in_params, self.out_params, self.operation, self.name,
                preamble=self.preamble)
        return kernel(*args, **kwargs)


class Raw:
    """A ``cupy.RawKernel`` per combination of the type names its source
    leaves open (``typedef``\\ s put in front of ``code``)."""

    kind = 'raw'

    def __init__(self, name, code, types):
        self.name = 'chainer_cuda_' + name
        self.code = code
        self.types = types        # {'T': (dtypes it is compiled for)}
        self._kernels = {}
        DEFINITIONS.append(self)

    def source(self, **dtypes):
        typedefs = ''.join('typedef {} {};\n'.format(_C_TYPES[numpy.dtype(d)],
                                                     name)
                           for name, d in sorted(dtypes.items()))
        return typedefs + PREAMBLE + self.code

    def __call__(self, grid, block, args, shared_mem=0, **dtypes):
        key = tuple(sorted((k, numpy.dtype(v)) for k, v in dtypes.items()))
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._kernels[key] = cupy().RawKernel(
                self.source(**dtypes), self.name)
        kernel(grid, block, args, shared_mem=shared_mem)


_C_TYPES = {numpy.dtype(numpy.float32): 'float',
            numpy.dtype(numpy.float64): 'double',
            numpy.dtype(numpy.int8): 'signed char',
            numpy.dtype(numpy.int16): 'short',
            numpy.dtype(numpy.int32): 'int',
            numpy.dtype(numpy.int64): 'long long',
            numpy.dtype(numpy.uint8): 'unsigned char',
            numpy.dtype(numpy.uint16): 'unsigned short',
            numpy.dtype(numpy.uint32): 'unsigned int',
            numpy.dtype(numpy.uint64): 'unsigned long long'}
