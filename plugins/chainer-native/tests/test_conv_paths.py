"""The forward convolution's two implementations: the packed GEMM kernels
(1-d and 2-d, on CPUs with AVX-512) and im2col + BLAS (everything else, and
everywhere with CHAINER_NATIVE_CONV_GEMM=0), against a direct reference, on
the shapes where blocking goes wrong first: strips of columns crossing from
one image into the next, several blocks of the reduction axis, output
channels that fill no whole tile, strides, dilations, padding wider than
the kernel, cover_all, groups, a bias that is a strided view."""
import os
import subprocess
import sys

import numpy
import pytest

import chainer_native as cn

from test_nn import ref_conv

# (x shape, w shape, stride, pad, dilation, groups, cover_all)
CASES = [
    # 7x7 outputs of 3 images: strips of 48 columns cross images.
    ((3, 5, 7, 7), (13, 5, 3, 3), 1, 1, 1, 1, False),
    # 60 channels x 9 taps: three blocks of the reduction axis.
    ((2, 60, 6, 5), (9, 60, 3, 3), 1, 1, 1, 1, False),
    # 1x1 over 300 channels, 20x3 positions (one row per image).
    ((2, 300, 20, 3), (17, 300, 1, 1), 1, 0, 1, 1, False),
    # Rows wider than a strip, padding on both sides.
    ((1, 3, 4, 70), (8, 3, 3, 5), 1, 2, 1, 1, False),
    ((2, 4, 11, 13), (6, 4, 3, 3), 2, 1, 1, 1, False),
    ((2, 3, 12, 37), (5, 3, 5, 5), 3, 2, 1, 1, False),
    ((1, 4, 9, 40), (7, 4, 3, 3), (1, 2), (0, 3), (2, 1), 1, False),
    # Padding wider than the kernel: rows and columns of zeros only.
    ((1, 2, 3, 4), (3, 2, 3, 3), 1, 4, 1, 1, False),
    ((2, 3, 9, 8), (4, 3, 3, 3), 2, 0, 1, 1, True),
    # Groups: of 9 output channels each (the packed kernels), of 4 and of
    # one (depthwise: im2col).
    ((2, 6, 7, 9), (18, 3, 3, 3), 1, 1, 1, 2, False),
    ((2, 6, 8, 8), (8, 3, 3, 3), 1, 1, 1, 2, False),
    ((2, 4, 6, 6), (4, 1, 3, 3), 1, 1, 1, 4, False),
    ((2, 3, 50), (5, 3, 4), 2, 1, 1, 1, False),
    ((1, 7, 1, 1), (9, 7, 3, 3), 1, 1, 1, 1, False),
    ((4, 3, 7, 6), (2, 3, 7, 6), 1, 0, 1, 1, False),
    # 2700 taps x 70 columns: im2col takes 15 output rows at a time.
    ((1, 300, 70, 70), (2, 300, 3, 3), 1, 1, 1, 1, False),
    # A 1x1 convolution with stride: columns packed two apart.
    ((2, 5, 10, 41), (4, 5, 1, 1), 2, 0, 1, 1, False),
]


def _ints(v, d):
    return tuple(v) if isinstance(v, tuple) else (v,) * d


def _ref(x, w, b, stride, pad, dil, groups, cover_all):
    d = x.ndim - 2
    stride, pad, dil = _ints(stride, d), _ints(pad, d), _ints(dil, d)
    if cover_all:
        # Pad the far side so that the last (partial) window is covered.
        extra = []
        for i in range(d):
            ext = dil[i] * (w.shape[2 + i] - 1) + 1
            span = x.shape[2 + i] + 2 * pad[i] - ext
            extra.append((stride[i] - span % stride[i]) % stride[i])
        x = numpy.pad(x, [(0, 0), (0, 0)] + [(0, e) for e in extra])
    return ref_conv(x, w, b, stride, pad, dil, groups)


def _check(case, dtype, rtol):
    xs, ws, stride, pad, dil, groups, cover_all = case
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, xs)
    w = rng.uniform(-1, 1, ws)
    bfull = rng.uniform(-1, 1, 2 * ws[0])
    y = cn.conv(cn.asarray(x.astype(dtype)), cn.asarray(w.astype(dtype)),
                cn.asarray(bfull.astype(dtype))[::2], stride=stride, pad=pad,
                dilation=dil, groups=groups, cover_all=cover_all)
    assert y.dtype == dtype
    ref = _ref(x, w, bfull[::2], stride, pad, dil, groups, cover_all)
    # Rounding grows with the sums' length: relative to the output's scale.
    numpy.testing.assert_allclose(numpy.asarray(y), ref, rtol=rtol,
                                  atol=rtol * max(1, numpy.abs(ref).max()))


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype,rtol', [(numpy.float64, 1e-12),
                                        (numpy.float32, 1e-5)])
def test_conv_forward(case, dtype, rtol):
    _check(case, dtype, rtol)


def test_conv_forward_does_not_depend_on_threads():
    rng = numpy.random.RandomState(2)
    x = cn.asarray(rng.uniform(-1, 1, (3, 20, 17, 19)).astype(numpy.float32))
    w = cn.asarray(rng.uniform(-1, 1, (33, 20, 3, 3)).astype(numpy.float32))
    before = cn.get_num_threads()
    try:
        results = []
        for n in (1, 3):
            cn.set_num_threads(n)
            results.append(numpy.asarray(cn.conv(x, w, pad=1)))
        numpy.testing.assert_array_equal(results[0], results[1])
    finally:
        cn.set_num_threads(before)


def test_im2col_path_agrees():
    """The same cases with the packed kernels turned off."""
    env = dict(os.environ, CHAINER_NATIVE_CONV_GEMM='0')
    here = os.path.dirname(os.path.abspath(__file__))
    code = ('import sys, numpy; sys.path.insert(0, {!r})\n'
            'import test_conv_paths as t\n'
            'for case in t.CASES:\n'
            '    t._check(case, numpy.float64, 1e-12)\n'
            '    t._check(case, numpy.float32, 1e-5)\n'
            'print("ok")\n').format(here)
    out = subprocess.run([sys.executable, '-c', code], env=env,
                         capture_output=True, text=True, cwd=here)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'ok'
