"""GoogLeNet (Szegedy et al., 2015) with Chainer's layer names, for feature
extraction and classification."""
import collections

from chainer_core import initializers
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.activation.softmax import softmax
from chainer_core.functions.noise.dropout import dropout
from chainer_core.functions.normalization.local_response_normalization \
    import local_response_normalization
from chainer_core.functions.pooling.average_pooling_2d import (
    average_pooling_2d)
from chainer_core.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer_core.link import Chain
from chainer_core.links.connection.convolution_2d import Convolution2D
from chainer_core.links.connection.inception import Inception
from chainer_core.links.connection.linear import Linear
from chainer_core.links.model.vision import _util
from chainer_core.serializers import npz

# Chainer's flag for whether image preprocessing can be used (it needs
# PIL there); here it is done in NumPy, so it always can.
available = True

_MEAN_BGR = (104.0, 117.0, 123.0)

# Inception modules: name and (in, out1, proj3, out3, proj5, out5, pool).
_INCEPTIONS = (
    ('inc3a', (192, 64, 96, 128, 16, 32, 32)),
    ('inc3b', (256, 128, 128, 192, 32, 96, 64)),
    ('inc4a', (480, 192, 96, 208, 16, 48, 64)),
    ('inc4b', (512, 160, 112, 224, 24, 64, 64)),
    ('inc4c', (512, 128, 128, 256, 24, 64, 64)),
    ('inc4d', (512, 112, 144, 288, 32, 64, 64)),
    ('inc4e', (528, 256, 160, 320, 32, 128, 128)),
    ('inc5a', (832, 256, 160, 320, 32, 128, 128)),
    ('inc5b', (832, 384, 192, 384, 48, 128, 128)),
)


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x):
    return local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k7(x):
    return average_pooling_2d(x, ksize=7)


def _dropout(x):
    return dropout(x, ratio=0.4)


def prepare(image, size=(224, 224)):
    """The GoogLeNet input of one image: RGB image (PIL image or array of
    shape (H, W), (H, W, C) or (C, H, W), 8-bit values) resized to
    ``size`` ``(width, height)`` (None: kept), in BGR order minus the mean
    pixel ``(104, 117, 123)``, as a float32 (3, H, W) array. Resizing is
    bilinear, in NumPy."""
    return _util.prepare_image(image, size, _MEAN_BGR)


class GoogLeNet(Chain):
    """GoogLeNet (the BVLC model's layout).

    Layers (``available_layers``): ``conv1``, ``pool1``, ``conv2_reduce``,
    ``conv2``, ``pool2``, ``inception_3a``, ``inception_3b``, ``pool3``,
    ``inception_4a`` ... ``inception_4e``, ``pool4``, ``inception_5a``,
    ``inception_5b``, ``pool5`` (7x7 average pooling), ``loss3_fc`` and
    ``prob``; ``loss3_fc`` needs inputs of about 224x224 (197 to 227 pixels
    per side). The auxiliary classifiers (``loss1_*``, ``loss2_*``) hold
    weights of the pre-trained model but take no part in ``forward``.

    Args:
        pretrained_model (str or None): ``'auto'`` loads
            ``bvlc_googlenet.npz`` from the models folder under Chainer's
            dataset root (``<root>/pfnet/chainer/models``, the root being
            ``$CHAINER_DATASET_ROOT`` or ``~/.chainer/dataset``); a
            path loads that npz file; None keeps a random initialization
            (LeCun uniform weights). Nothing is downloaded: a missing file
            is an error that says where to put it.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        path = None
        if pretrained_model:
            path = _util.pretrained_path(
                type(self).__name__, pretrained_model, 'bvlc_googlenet.npz',
                'bvlc_googlenet.caffemodel (BVLC)')
            # The weights are overwritten: skip the costly random draw.
            init = dict(initialW=initializers.Zero())
        else:
            init = dict(initialW=initializers.LeCunUniform(scale=1.0))
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **init)
            self.conv2_reduce = Convolution2D(64, 64, 1, **init)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **init)
            for name, args in _INCEPTIONS:
                setattr(self, name, Inception(*args))
            self.loss3_fc = Linear(1024, 1000, **init)
            self.loss1_conv = Convolution2D(512, 128, 1, **init)
            self.loss1_fc1 = Linear(2048, 1024, **init)
            self.loss1_fc2 = Linear(1024, 1000, **init)
            self.loss2_conv = Convolution2D(528, 128, 1, **init)
            self.loss2_fc1 = Linear(2048, 1024, **init)
            self.loss2_fc2 = Linear(1024, 1000, **init)
        if path is not None:
            npz.load_npz(path, self)

    @property
    def functions(self):
        """The layers in order: ``{name: [callables]}``."""
        return collections.OrderedDict([
            ('conv1', [self.conv1, relu]),
            ('pool1', [_max_pooling_2d, _local_response_normalization]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _local_response_normalization]),
            ('pool2', [_max_pooling_2d]),
            ('inception_3a', [self.inc3a]),
            ('inception_3b', [self.inc3b]),
            ('pool3', [_max_pooling_2d]),
            ('inception_4a', [self.inc4a]),
            ('inception_4b', [self.inc4b]),
            ('inception_4c', [self.inc4c]),
            ('inception_4d', [self.inc4d]),
            ('inception_4e', [self.inc4e]),
            ('pool4', [_max_pooling_2d]),
            ('inception_5a', [self.inc5a]),
            ('inception_5b', [self.inc5b]),
            ('pool5', [_average_pooling_2d_k7]),
            ('loss3_fc', [_dropout, self.loss3_fc]),
            ('prob', [softmax]),
        ])

    @property
    def available_layers(self):
        return list(self.functions)

    def forward(self, x, layers=None, **kwargs):
        """forward(x, layers=['prob'])

        The activations of ``layers`` for the preprocessed batch ``x``
        ``(N, 3, H, W)``, as ``{name: Variable}``; the computation stops
        after the last requested layer.
        """
        return _util.forward_layers(self, x, ['prob'] if layers is None
                                    else layers, kwargs)

    def extract(self, images, layers=None, size=(224, 224)):
        """The activations of ``layers`` (default ``['pool5']``) for a list
        of images, each prepared by :func:`prepare` with ``size``. The train
        and backprop configuration are left as they are: wrap the call in
        ``chainer.using_config('train', False)`` for inference."""
        return _util.extract(self, images, ['pool5'] if layers is None
                             else layers, size, prepare)

    def predict(self, images, oversample=True):
        """Class probabilities ``(N, 1000)`` of a list of images: each
        resized to 256x256, then averaged over ten 224x224 crops
        (``oversample``) or taken from the centre crop; in test mode without
        backprop."""
        return _util.predict(self, images, oversample, prepare)
