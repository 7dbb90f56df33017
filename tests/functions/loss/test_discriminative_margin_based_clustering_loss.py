"""discriminative_margin_based_clustering_loss: three 0-dim terms scaled by
alpha, beta and gamma; tight clusters give no variance term, distant means
no distance term, the regularisation term is the mean norm of the means;
L1 and L2; gradients stay finite where instances are absent; argument
errors."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

loss_fn = F.discriminative_margin_based_clustering_loss

# One image, 2x2 pixels: instance 1 on the top row, 2 on the bottom row.
LABELS = numpy.array([[[1, 1], [2, 2]]], numpy.int32)


def _embeddings(top, bottom, dtype):
    """(1, 2, 2, 2) embeddings: each row's pixels get the given vectors."""
    e = numpy.empty((1, 2, 2, 2))
    e[0, :, 0, 0], e[0, :, 0, 1] = top
    e[0, :, 1, 0], e[0, :, 1, 1] = bottom
    return e.astype(dtype)


@dtype_param
class TestDiscriminativeMarginBasedClusteringLoss:

    def test_tight_distant_clusters(self, dtype):
        e = _embeddings(([3, 0], [3, 0]), ([0, 4], [0, 4]), dtype)
        l_var, l_dist, l_reg = loss_fn(e, LABELS, 0.5, 1.5, 2, norm=2)
        for v in (l_var, l_dist, l_reg):
            assert v.shape == () and v.dtype == dtype
        assert_close(l_var, 0, dtype)
        assert_close(l_dist, 0, dtype)
        # Means (3, 0) and (0, 4): norms 3 and 4, over C * B = 2, times
        # gamma.
        assert_close(l_reg, 0.001 * 3.5, dtype)

    def test_terms_and_weights(self, dtype):
        e = _embeddings(([1, 0], [-1, 0]), ([0, 0.5], [0, 0.5]), dtype)
        l_var, l_dist, l_reg = loss_fn(e, LABELS, 0.5, 1.5, 2, norm=1,
                                       alpha=2.0, beta=3.0, gamma=4.0)
        # Instance 1: mean (0, 0), each pixel 1 away: (1 - 0.5)^2 twice
        # over 2 pixels; instance 2 is tight. Divided by C = 2.
        assert_close(l_var, 2.0 * (0.25 + 0.25) / 2 / 2, dtype)
        # The means are 0.5 apart: (3 - 0.5)^2 for the single pair.
        assert_close(l_dist, 3.0 * 2.5 ** 2, dtype)
        assert_close(l_reg, 4.0 * 0.5 / 2, dtype)

    def test_l2_differs_from_l1(self, dtype):
        e = _embeddings(([1, 1], [-1, -1]), ([0, 0], [0, 0]), dtype)
        l1 = loss_fn(e, LABELS, 0.1, 1.5, 2, norm=1)[0]
        l2 = loss_fn(e, LABELS, 0.1, 1.5, 2, norm=2)[0]
        assert_close(l1, 2 * (2 - 0.1) ** 2 / 2 / 2, dtype)
        assert_close(l2, 2 * (2 ** 0.5 - 0.1) ** 2 / 2 / 2, dtype)

    @pytest.mark.parametrize('norm', [1, 2])
    def test_gradients_are_finite_with_absent_instances(self, dtype, norm):
        rng = numpy.random.RandomState(0)
        e = chainer.Variable(rng.uniform(-1, 1, (1, 3, 2, 2)).astype(dtype))
        out = loss_fn(e, LABELS, 0.1, 1.5, 3, norm=norm)
        g, = grads(out[0] + out[1] + out[2], (e,))
        assert numpy.isfinite(g).all() and g.any()

    def test_bad_arguments(self, dtype):
        e = _embeddings(([1, 0], [1, 0]), ([0, 1], [0, 1]), dtype)
        with pytest.raises(ValueError, match='norm'):
            loss_fn(e, LABELS, 0.5, 1.5, 2, norm=3)
        with pytest.raises(ValueError, match='max_embedding_dim'):
            loss_fn(e, LABELS, 0.5, 1.5, 0)
        with pytest.raises(ValueError, match='max_embedding_dim'):
            loss_fn(e, LABELS, 0.5, 1.5, 3)
        with pytest.raises(TypeError, match='labels'):
            loss_fn(e, LABELS[0], 0.5, 1.5, 2)
