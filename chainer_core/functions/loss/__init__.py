from chainer_core.functions.loss.absolute_error import absolute_error  # NOQA
from chainer_core.functions.loss.black_out import black_out  # NOQA
from chainer_core.functions.loss.contrastive import contrastive  # NOQA
from chainer_core.functions.loss.crf1d import argmax_crf1d, crf1d  # NOQA
from chainer_core.functions.loss.ctc import (  # NOQA
    connectionist_temporal_classification)
from chainer_core.functions.loss.cross_covariance import (  # NOQA
    cross_covariance)
from chainer_core.functions.loss.decov import decov  # NOQA
from chainer_core.functions.loss.discriminative_loss import (  # NOQA
    discriminative_margin_based_clustering_loss)
from chainer_core.functions.loss.hinge import hinge  # NOQA
from chainer_core.functions.loss.huber_loss import huber_loss  # NOQA
from chainer_core.functions.loss.mean_absolute_error import (  # NOQA
    mean_absolute_error)
from chainer_core.functions.loss.mean_squared_error import (  # NOQA
    mean_squared_error)
from chainer_core.functions.loss.negative_sampling import (  # NOQA
    negative_sampling)
from chainer_core.functions.loss.sigmoid_cross_entropy import (  # NOQA
    sigmoid_cross_entropy)
from chainer_core.functions.loss.softmax_cross_entropy import (  # NOQA
    softmax_cross_entropy)
from chainer_core.functions.loss.squared_error import squared_error  # NOQA
from chainer_core.functions.loss.triplet import triplet  # NOQA
from chainer_core.functions.loss.vae import (  # NOQA
    bernoulli_nll, gaussian_kl_divergence, gaussian_nll)
