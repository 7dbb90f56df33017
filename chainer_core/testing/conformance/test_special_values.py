"""NaN, +inf, -inf and empty input: every case of the op table gives, on
every device, the answer of the NumPy reference (Chainer's CPU answer), so
that a divergence shows up the same way wherever a model runs.

Each float input gets the special value in its first element (a row mixing
it with finite values) and over its whole last slice along axis 0 (windows
and rows made of it alone); the empty variant cuts the batch axis to zero.
Forward output and input gradients must equal @numpy's, NaN and inf
positions included, or both devices must raise the same exception type.
"""
import functools
import warnings
import zlib

import numpy
import pytest

import chainer_core
import chainer_core.functions as F

from .cases import CASES

HOST = chainer_core.get_device('@numpy')
DTYPE = numpy.float32
VALUES = {'nan': numpy.nan, 'inf': numpy.inf, '-inf': -numpy.inf}
VARIANTS = tuple(VALUES) + ('empty',)
_BY_ID = {c.id: c for c in CASES}

# Cases whose empty variant raises on @numpy as it does in Chainer 7.8.1:
# no answer exists (the extremum or FFT of nothing), the cut leaves inputs
# that do not fit together (a fixed target shape, indices or labels into
# the empty axis, a bias cut with the batch, a layer axis cut instead of a
# batch), Chainer requires a batch (contrastive, triplet, roi and n_step
# functions), or Chainer fails on it too (spatial_transformer_sampler,
# deformable_convolution_2d_sampler); ops new in this library (top_k,
# gather, scatter, take_along_axis, sub, mul, div) are in the second group.
EMPTY_RAISES = frozenset('''
    lstm-short-x-c lstm-short-x-h reshape-flat reshape-merge
    reshape-add-axes reshape-to-0dim broadcast_to-new-lead
    broadcast_to-inner-and-lead broadcast_to-all-ones get_item-int
    get_item-int-neg-to-0dim get_item-ellipsis-mid
    get_item-int-list-repeated get_item-int-lists-pair squeeze-tuple-neg
    separate-axis0 where-broadcast top_k-smallest
    take_along_axis-axis0-broadcast take_along_axis-flat gather
    gather-axis0 scatter scatter-axis0 pad-edge pad-reflect
    pad-reflect-wide pad-symmetric pad-wrap repeat-per-element
    repeat-per-element-flat scatter_add-int-array scatter_add-pairs
    as_strided-windows as_strided-overlap-offset as_strided-broadcast
    as_strided-negative as_strided-0dim as_strided-default-offset
    transpose_sequence transpose_sequence-1d spatial_transformer_sampler
    deconvolution_2d deconvolution_2d-stride-pad
    deconvolution_2d-outsize deconvolution_2d-dilate deconvolution_nd-3d
    depthwise_convolution_2d deformable_convolution_2d_sampler
    deformable_convolution_2d_sampler-nobias bilinear-linear-terms
    contrastive-close-mean contrastive-close-no contrastive-far-mean
    contrastive-far-no triplet-active-mean triplet-active-no
    triplet-inactive-mean triplet-inactive-no crf1d-mean crf1d-no
    crf1d-one-step argmax_crf1d
    discriminative_margin_based_clustering_loss-L1-variance
    discriminative_margin_based_clustering_loss-L1-distance
    discriminative_margin_based_clustering_loss-L1-regularization
    discriminative_margin_based_clustering_loss-L2-variance
    discriminative_margin_based_clustering_loss-L2-distance
    discriminative_margin_based_clustering_loss-L2-regularization
    add-bcast-lhs sub-bcast-lhs mul-bcast-lhs div-bcast-lhs sum_to-inner
    matmul-2d-transab max-all min-all logsumexp-all max-axes02
    min-axes02 logsumexp-axes02 max-keepdims-all min-keepdims-all
    logsumexp-keepdims-all det inv einsum-ii->i einsum-iij,jk->ki
    einsum-ij,jk,kl->il sparse_matmul-sparse-dense fft-1d ifft-1d
    cholesky batch_normalization-axis-last
    decorrelated_batch_normalization-2d spatial_pyramid_pooling_2d
    roi_pooling_2d roi_pooling_2d-scale roi_average_align_2d
    roi_max_align_2d roi_average_align_2d-ratio roi_max_align_2d-ratio
    roi_average_align_2d-ratio-pair roi_max_align_2d-ratio-pair
    roi_max_pooling_2d roi_max_pooling_2d-scale roi_average_pooling_2d
    roi_average_pooling_2d-scale n_step_rnn n_step_rnn-relu n_step_birnn
    n_step_birnn-relu n_step_lstm n_step_bilstm n_step_gru n_step_bigru
    n_step_lstm-1layer n_step_gru-1layer n_step_lstm-extra-rows
    n_step_bilstm-extra-rows n_step_bigru-extra-rows
    n_step_birnn-extra-rows n_step_bilstm-1step
'''.split())


def _special(a, value):
    a = a.copy()
    a.flat[0] = value
    if a.ndim and a.shape[0] > 1:
        a[-1] = value
    return a


def _make(case, variant):
    """Host inputs and consts of ``case`` for ``variant``; None when the
    variant does not apply (no float input, no batch axis)."""
    rng = numpy.random.RandomState(zlib.crc32(case.id.encode()))
    inputs = [g.make(rng, DTYPE) for g in case.inputs]
    consts = {k: v.make(rng, DTYPE) if hasattr(v, 'make') else v
              for k, v in case.consts.items()}
    if variant in VALUES:
        floats = [a.dtype.kind == 'f' and a.size > 0 for a in inputs]
        if not any(floats):
            return None
        inputs = [_special(a, VALUES[variant]) if f else a
                  for a, f in zip(inputs, floats)]
        return inputs, consts
    if not inputs or inputs[0].ndim == 0:
        return None
    n = inputs[0].shape[0]

    def cut(a):
        if isinstance(a, numpy.ndarray) and a.ndim and a.shape[0] == n:
            return a[:0]
        return a
    return [cut(a) for a in inputs], {k: cut(v) for k, v in consts.items()}


def _run(case, inputs, consts, device):
    """``(output, input gradients)`` of the case on ``device`` as host
    arrays; an exception type stands for a stage that raised."""
    xs = [chainer_core.Variable(device.send(a)) for a in inputs]
    consts = {k: device.send(v) if isinstance(v, numpy.ndarray) else v
              for k, v in consts.items()}
    with warnings.catch_warnings(), numpy.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        try:
            y = case.call(*xs, **consts)
            out = HOST.send(y.array)
        except Exception as e:
            return type(e), None
        if out.dtype.kind != 'f':
            return out, None
        gy = numpy.random.RandomState(0).uniform(-1, 1, out.shape)
        try:
            y.grad = device.send(gy.astype(out.dtype))
            y.backward()
        except Exception as e:
            return out, type(e)
        return out, [None if x.grad is None else HOST.send(x.grad)
                     for x in xs]


@functools.lru_cache(maxsize=None)
def _reference(case_id, variant):
    case = _BY_ID[case_id]
    made = _make(case, variant)
    return None if made is None else _run(case, *made, HOST)


def _describe(result):
    if isinstance(result, type):
        return result.__name__
    return 'no result' if result is None else 'a result'


def _assert_same(actual, expected, what, tol):
    if isinstance(actual, list) and isinstance(expected, list):
        for i, (a, e) in enumerate(zip(actual, expected)):
            _assert_same(a, e, '{} {}'.format(what, i), tol)
        return
    if not (isinstance(actual, numpy.ndarray) and
            isinstance(expected, numpy.ndarray)):
        assert actual is expected, '{}: {} on the device, {} on @numpy'.format(
            what, _describe(actual), _describe(expected))
        return
    assert actual.shape == expected.shape, what
    assert actual.dtype == expected.dtype, what
    numpy.testing.assert_allclose(actual, expected, equal_nan=True,
                                  err_msg=what, **tol)


@pytest.mark.parametrize('variant', VARIANTS)
@pytest.mark.parametrize('case', CASES, ids=lambda c: c.id)
def test_special_values(case, variant, device):
    expected = _reference(case.id, variant)
    if expected is None:
        pytest.skip('{} does not apply to {}'.format(variant, case.id))
    if device.name == HOST.name:
        if variant == 'empty' and case.id not in EMPTY_RAISES:
            for stage, result in zip(('forward', 'backward'), expected):
                assert not isinstance(result, type), \
                    'the {} of an empty batch raises {}'.format(
                        stage, result.__name__)
        return
    out, grads = _run(case, *_make(case, variant), device)
    _assert_same(out, expected[0], 'output',
                 case.tolerance('forward', DTYPE))
    _assert_same(grads, expected[1], 'gradient',
                 case.tolerance('backward', DTYPE))


def _empty(*shape):
    return numpy.empty(shape, DTYPE)


EMPTY_CALLS = [
    # Chainer raises here (the max of an empty axis); the consistent answer
    # of a softmax over nothing is an empty array.
    ('softmax-empty-axis', lambda x: F.softmax(x, axis=1), [(3, 0)],
     _empty(3, 0)),
    ('log_softmax-empty-axis', lambda x: F.log_softmax(x, axis=1), [(3, 0)],
     _empty(3, 0)),
    # Chainer's answer: the mean of nothing is nan, not 0.
    ('mean_squared_error-empty', F.mean_squared_error, [(0, 3), (0, 3)],
     numpy.array(numpy.nan, DTYPE)),
    ('convolution_2d-empty-batch', F.convolution_2d,
     [(0, 3, 4, 4), (2, 3, 3, 3), (2,)], _empty(0, 2, 2, 2)),
    ('convolution_2d-no-output-channel', F.convolution_2d,
     [(2, 3, 4, 4), (0, 3, 3, 3), (0,)], _empty(2, 0, 2, 2)),
    ('convolution_nd-empty-batch', F.convolution_nd,
     [(0, 3, 4), (2, 3, 3)], _empty(0, 2, 2)),
    ('convolution_nd-no-output-channel', F.convolution_nd,
     [(2, 3, 4), (0, 3, 3)], _empty(2, 0, 2)),
    ('deconvolution_2d-empty-batch', F.deconvolution_2d,
     [(0, 3, 4, 4), (3, 2, 3, 3), (2,)], _empty(0, 2, 6, 6)),
    ('deconvolution_2d-no-output-channel', F.deconvolution_2d,
     [(2, 3, 4, 4), (3, 0, 3, 3)], _empty(2, 0, 6, 6)),
    ('deconvolution_nd-empty-batch', F.deconvolution_nd,
     [(0, 3, 4), (3, 2, 3)], _empty(0, 2, 6)),
]


@pytest.mark.parametrize('func, shapes, expected',
                         [c[1:] for c in EMPTY_CALLS],
                         ids=[c[0] for c in EMPTY_CALLS])
def test_empty_answer(func, shapes, expected, device):
    """Empty inputs beyond the batch axis of the table: NumPy's answer,
    without a warning, and gradients of the inputs' shapes (zero, as no
    output depends on them)."""
    rng = numpy.random.RandomState(0)
    xs = [chainer_core.Variable(device.send(
        rng.uniform(-1, 1, s).astype(DTYPE))) for s in shapes]
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)
        y = func(*xs)
        y.grad = device.send(numpy.ones(y.shape, DTYPE))
        y.backward()
    out = HOST.send(y.array)
    assert out.shape == expected.shape
    numpy.testing.assert_array_equal(out, expected)
    for x in xs:
        assert x.grad.shape == x.shape
        assert numpy.all(HOST.send(x.grad) == 0)
