"""Normalization links: running statistics (persistents ``avg_mean``,
``avg_var``, ``N``), decay, eps, train/test mode, fine-tuning, axes, lazy
initialization; references computed here with NumPy."""
import copy
import io

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import initializers
from chainer_core import serializers

from ._util import (assert_allclose, check_param_grads, check_round_trip,
                    float64, float64_config, npz_keys, rand)


def _bn_ref(x, gamma, beta, mean, var, eps, axes):
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)]
    return (gamma.reshape(shape) * (x - mean.reshape(shape)) /
            numpy.sqrt(var.reshape(shape) + eps) + beta.reshape(shape))


def _stats(x, axes):
    m = numpy.prod([x.shape[a] for a in axes])
    mean = x.mean(axis=axes)
    var = x.var(axis=axes)
    return mean, var, var * m / (m - 1)


class TestBatchNormalization:

    def _link(self, *args, **kw):
        return float64(lambda: L.BatchNormalization(*args, **kw))

    def test_defaults(self):
        link = L.BatchNormalization(3)
        assert (link.decay, link.eps, link.N, link.axis) == \
            (0.9, 2e-5, 0, None)
        numpy.testing.assert_array_equal(link.gamma.array, numpy.ones(3))
        numpy.testing.assert_array_equal(link.beta.array, numpy.zeros(3))
        numpy.testing.assert_array_equal(link.avg_mean, numpy.zeros(3))
        numpy.testing.assert_array_equal(link.avg_var, numpy.ones(3))
        assert link.gamma.dtype == link.avg_mean.dtype == numpy.float32
        assert link._persistent == {'avg_mean', 'avg_var', 'N'}
        assert npz_keys(link) == ['N', 'avg_mean', 'avg_var', 'beta',
                                  'gamma']

    def test_train_mode_uses_batch_statistics_and_updates_running(self):
        link = self._link(3, decay=0.8, eps=1e-3)
        link.gamma.array[...] = [1, 2, 3]
        link.beta.array[...] = [0, -1, 1]
        x = rand((4, 3, 2, 2), 0)
        y = link(x)
        mean, var, unbiased = _stats(x, (0, 2, 3))
        assert_allclose(y, _bn_ref(x, link.gamma.array, link.beta.array,
                                   mean, var, 1e-3, (0, 2, 3)))
        assert_allclose(link.avg_mean, 0.2 * mean)
        assert_allclose(link.avg_var, 0.8 + 0.2 * unbiased)
        assert link.N == 0

    def test_test_mode_uses_running_statistics(self):
        link = self._link(3)
        link.avg_mean[...] = [0.1, 0.2, 0.3]
        link.avg_var[...] = [1, 2, 3]
        x = rand((2, 3), 1)
        with chainer.using_config('train', False):
            y = link(x)
        assert_allclose(y, _bn_ref(x, link.gamma.array, link.beta.array,
                                   link.avg_mean, link.avg_var, 2e-5, (0,)))
        numpy.testing.assert_array_equal(link.avg_mean, [0.1, 0.2, 0.3])

    def test_finetune_averages_the_batches(self):
        link = self._link(2)
        x1, x2 = rand((3, 2), 2), rand((5, 2), 3)
        link(x1, finetune=True)
        assert link.N == 1
        assert_allclose(link.avg_mean, x1.mean(0))
        link(x2, finetune=True)
        assert link.N == 2
        assert_allclose(link.avg_mean, (x1.mean(0) + x2.mean(0)) / 2)
        assert_allclose(link.avg_var,
                        (x1.var(0, ddof=1) + x2.var(0, ddof=1)) / 2)
        link.start_finetuning()
        assert link.N == 0

    def test_recomputing_leaves_statistics(self):
        link = self._link(2)
        with chainer.using_config('in_recomputing', True):
            link(rand((3, 2), 4), finetune=True)
        assert link.N == 0
        numpy.testing.assert_array_equal(link.avg_mean, [0, 0])

    def test_without_gamma_and_beta(self):
        link = self._link(3, use_gamma=False, use_beta=False)
        assert link.gamma is None and link.beta is None
        assert list(link.params()) == []
        assert npz_keys(link) == ['N', 'avg_mean', 'avg_var']
        x = rand((4, 3), 5)
        mean, var, _ = _stats(x, (0,))
        assert_allclose(link(x), (x - mean) / numpy.sqrt(var + 2e-5))

    def test_channel_shape(self):
        link = self._link((3, 2))
        x = rand((2, 3, 2, 4), 6)
        mean, var, _ = _stats(x, (0, 3))
        assert_allclose(link(x), _bn_ref(x, link.gamma.array,
                                         link.beta.array, mean, var, 2e-5,
                                         (0, 3)))

    def test_axis_and_lazy_initialization(self):
        link = self._link(axis=(0, 1))
        assert link.avg_mean is None and link.gamma.array is None
        x = rand((2, 3, 4), 7)
        y = link(x)
        assert link.gamma.shape == (4,) and link.avg_mean.shape == (4,)
        mean, var, _ = _stats(x, (0, 1))
        assert_allclose(y, _bn_ref(x, link.gamma.array, link.beta.array,
                                   mean, var, 2e-5, (0, 1)))

    def test_int_axis(self):
        link = self._link(axis=0)
        assert link.axis == (0,)
        link(rand((5, 2, 3), 8))
        assert link.avg_mean.shape == (2, 3)

    def test_size_or_axis_required(self):
        with pytest.raises(RuntimeError):
            L.BatchNormalization()

    def test_initial_values(self):
        link = L.BatchNormalization(
            2, initial_gamma=initializers.Constant(3), initial_beta=2,
            initial_avg_mean=numpy.array([1, 2], numpy.float32),
            initial_avg_var=5)
        numpy.testing.assert_array_equal(link.gamma.array, [3, 3])
        numpy.testing.assert_array_equal(link.beta.array, [2, 2])
        numpy.testing.assert_array_equal(link.avg_mean, [1, 2])
        numpy.testing.assert_array_equal(link.avg_var, [5, 5])

    def test_dtype(self):
        link = L.BatchNormalization(3, dtype=numpy.float16)
        assert link.gamma.dtype == link.avg_var.dtype == numpy.float16
        y = link(numpy.ones((2, 3), numpy.float16))
        assert y.dtype == numpy.float16

    @pytest.mark.parametrize('cls', [L.BatchNormalization,
                                     L.BatchRenormalization])
    def test_float16_input_with_float32_parameters(self, cls):
        link = cls(3)
        x = rand((4, 3), 13, dtype=numpy.float32)
        expected = cls(3)(x).array
        y = link(x.astype(numpy.float16))
        assert y.dtype == numpy.float16
        numpy.testing.assert_allclose(y.array, expected, atol=1e-2)
        assert link.avg_mean.dtype == numpy.float32
        link.cleargrads()
        chainer.functions.sum(y * y).backward()
        assert link.gamma.grad.dtype == numpy.float32
        with chainer.using_config('train', False):
            assert link(x.astype(numpy.float16)).dtype == numpy.float16

    def test_removed_test_argument(self):
        link = L.BatchNormalization(3)
        with pytest.raises(ValueError, match='using_config'):
            link(numpy.ones((2, 3), numpy.float32), test=True)
        with pytest.raises(TypeError):
            link(numpy.ones((2, 3), numpy.float32), foo=True)

    def test_gradients(self):
        check_param_grads(self._link(3), (rand((4, 3, 2), 9),))

    def test_round_trip_with_statistics(self):
        def prepare(link):
            link(rand((4, 3), 10), finetune=True)
            link(rand((4, 3), 11), finetune=True)

        def call(link):
            with chainer.using_config('train', False):
                return link(rand((2, 3), 12))

        dst = check_round_trip(lambda: self._link(3), (), call=call,
                               prepare=prepare)
        assert dst.N == 2 and isinstance(dst.N, int)

    def test_round_trip_into_lazy_link(self):
        src = self._link(axis=0)
        src(rand((3, 4), 12))
        src.avg_mean[...] = [1, 2, 3, 4]
        dst = self._link(axis=0)
        buf = io.BytesIO()
        serializers.save_npz(buf, src)
        buf.seek(0)
        serializers.load_npz(buf, dst)
        numpy.testing.assert_array_equal(dst.avg_mean, [1, 2, 3, 4])
        assert dst.gamma.shape == (4,)

    def test_copy_modes_and_persistents(self):
        link = L.BatchNormalization(2)
        shared = link.copy('share')
        assert shared.avg_mean is link.avg_mean
        deep = link.copy('copy')
        assert deep.avg_mean is not link.avg_mean
        link(numpy.array([[1, 1], [3, 3]], numpy.float32))
        numpy.testing.assert_array_equal(deep.avg_mean, [0, 0])
        assert (shared.avg_mean != 0).all()

    def test_str(self):
        assert str(L.BatchNormalization(3)).startswith(
            'BatchNormalization(size=(3,), decay=0.9, eps=2e-05')


class TestBatchRenormalization:

    def _link(self, *args, **kw):
        return float64(lambda: L.BatchRenormalization(*args, **kw))

    def test_defaults(self):
        link = L.BatchRenormalization(3)
        assert (link.rmax, link.dmax, link.decay, link.eps) == \
            (1, 0, 0.9, 2e-5)
        assert npz_keys(link) == ['N', 'avg_mean', 'avg_var', 'beta',
                                  'gamma']

    def test_train_mode(self):
        link = self._link(3, rmax=1.5, dmax=0.5, decay=0.7)
        link.avg_mean[...] = [0.2, -0.3, 0.1]
        link.avg_var[...] = [0.5, 2, 0.05]
        link.gamma.array[...] = [1, 2, 3]
        avg_mean, avg_var = link.avg_mean.copy(), link.avg_var.copy()
        x = rand((5, 3), 0)
        y = link(x)
        mean, var, unbiased = _stats(x, (0,))
        sigma_b = numpy.sqrt(var + 2e-5)
        sigma = numpy.sqrt(avg_var + 2e-5)
        r = numpy.clip(sigma_b / sigma, 1 / 1.5, 1.5)
        d = numpy.clip((mean - avg_mean) / sigma, -0.5, 0.5)
        expected = link.gamma.array * ((x - mean) / sigma_b * r + d) + \
            link.beta.array
        assert_allclose(y, expected)
        assert_allclose(link.avg_mean, 0.7 * avg_mean + 0.3 * mean)
        assert_allclose(link.avg_var, 0.7 * avg_var + 0.3 * unbiased)

    def test_test_mode(self):
        link = self._link(2)
        link.avg_mean[...] = [1, 2]
        x = rand((3, 2), 1)
        with chainer.using_config('train', False):
            y = link(x)
        assert_allclose(y, (x - [1, 2]) / numpy.sqrt(1 + 2e-5))

    def test_finetune(self):
        link = self._link(2)
        x = rand((4, 2), 2)
        link(x, finetune=True)
        assert link.N == 1
        assert_allclose(link.avg_mean, x.mean(0))

    def test_gradients_and_round_trip(self):
        x = rand((4, 3), 3)
        # r and d are constants of the backward pass, so only the
        # parameters' gradients are exact; decay 1 keeps the statistics.
        link = self._link(3, rmax=2, dmax=1, decay=1.0)
        link.avg_var[...] = [0.5, 2, 1]
        check_param_grads(link, (x,), no_grads=(True,))
        check_round_trip(lambda: self._link(3), (x,))

    def test_gradient_with_unclipped_corrections_is_batch_norm(self):
        check_param_grads(self._link(3, decay=1.0), (rand((4, 3), 4),))


class TestLayerNormalization:

    def test_forward_and_lazy(self):
        link = L.LayerNormalization()
        assert link.eps == 1e-6 and link.gamma.array is None
        x = rand((3, 4), 0)
        with float64_config():
            y = link(x)
        assert link.gamma.shape == link.beta.shape == (4,)
        expected = (x - x.mean(1, keepdims=True)) / numpy.sqrt(
            x.var(1, keepdims=True) + 1e-6)
        assert_allclose(y, expected)

    def test_initial_values(self):
        link = L.LayerNormalization(3, eps=0.1, initial_gamma=2,
                                    initial_beta=initializers.One())
        numpy.testing.assert_array_equal(link.gamma.array, [2, 2, 2])
        numpy.testing.assert_array_equal(link.beta.array, [1, 1, 1])

    def test_gradients_and_round_trip(self):
        x = rand((2, 5), 1)
        check_param_grads(float64(lambda: L.LayerNormalization(5)), (x,))
        with float64_config():
            check_round_trip(L.LayerNormalization, (x,))
        assert npz_keys(L.LayerNormalization(2)) == ['beta', 'gamma']


class TestGroupNormalization:

    def test_forward(self):
        link = float64(lambda: L.GroupNormalization(2, 4, eps=1e-3))
        link.gamma.array[...] = [1, 2, 3, 4]
        link.beta.array[...] = [0, 1, 0, 1]
        x = rand((2, 4, 3), 0)
        y = link(x)
        g = x.reshape(2, 2, 6)
        h = ((g - g.mean(2, keepdims=True)) /
             numpy.sqrt(g.var(2, keepdims=True) + 1e-3)).reshape(x.shape)
        assert_allclose(y, h * link.gamma.array[:, None] +
                        link.beta.array[:, None])

    def test_lazy_and_defaults(self):
        link = L.GroupNormalization(3)
        assert link.eps == 1e-5 and link.gamma.array is None
        link(numpy.ones((1, 6, 2), numpy.float32))
        numpy.testing.assert_array_equal(link.gamma.array, numpy.ones(6))
        numpy.testing.assert_array_equal(link.beta.array, numpy.zeros(6))

    def test_needs_three_axes(self):
        with pytest.raises(ValueError):
            L.GroupNormalization(2)(numpy.ones((2, 4), numpy.float32))

    def test_gradients_and_round_trip(self):
        x = rand((2, 4, 3), 1)
        check_param_grads(float64(lambda: L.GroupNormalization(2, 4)), (x,))
        with float64_config():
            check_round_trip(lambda: L.GroupNormalization(2), (x,))


class TestDecorrelatedBatchNormalization:

    def _link(self, **kw):
        return L.DecorrelatedBatchNormalization(
            4, groups=2, dtype=numpy.float64, **kw)

    def test_initial_statistics(self):
        link = self._link()
        numpy.testing.assert_array_equal(link.avg_mean, numpy.zeros((2, 2)))
        numpy.testing.assert_array_equal(
            link.avg_projection, numpy.stack([numpy.eye(2)] * 2))
        assert npz_keys(link) == ['N', 'avg_mean', 'avg_projection']
        assert list(link.params()) == []

    def test_train_mode_whitens_each_group(self):
        link = self._link(eps=1e-9)
        x = rand((50, 4, 3), 0)
        x[:, 1] += 0.5 * x[:, 0]
        y = link(x).array
        for g in range(2):
            ch = y[:, 2 * g:2 * g + 2].transpose(1, 0, 2).reshape(2, -1)
            numpy.testing.assert_allclose(ch.mean(1), 0, atol=1e-10)
            numpy.testing.assert_allclose(ch.dot(ch.T) / ch.shape[1],
                                          numpy.eye(2), atol=1e-6)
        means = x.transpose(1, 0, 2).reshape(2, 2, -1).mean(2)
        assert_allclose(link.avg_mean, 0.1 * means)

    def test_test_mode_uses_running_statistics(self):
        link = self._link()
        link.avg_mean[...] = [[1, 2], [3, 4]]
        link.avg_projection[...] = [[[2, 0], [1, 1]], [[1, 0], [0, 3]]]
        x = rand((3, 4), 1)
        with chainer.using_config('train', False):
            y = link(x)
        expected = numpy.concatenate([
            (x[:, 0:2] - [1, 2]).dot(numpy.array([[2, 0], [1, 1]]).T),
            (x[:, 2:4] - [3, 4]).dot(numpy.array([[1, 0], [0, 3]]).T)], 1)
        assert_allclose(y, expected)

    def test_finetune(self):
        link = self._link()
        x = rand((6, 4), 2)
        link(x, finetune=True)
        assert link.N == 1
        assert_allclose(link.avg_mean, x.mean(0).reshape(2, 2))

    def test_groups_must_divide(self):
        with pytest.raises(ValueError):
            L.DecorrelatedBatchNormalization(5, groups=2)

    def test_round_trip(self):
        def call(link):
            with chainer.using_config('train', False):
                return link(rand((2, 4), 4))

        dst = check_round_trip(self._link, (), call=call,
                               prepare=lambda link: link(rand((6, 4), 3)))
        assert (dst.avg_mean != 0).all()

    def test_deepcopy(self):
        link = self._link()
        c = copy.deepcopy(link)
        assert c.avg_projection is not link.avg_projection
