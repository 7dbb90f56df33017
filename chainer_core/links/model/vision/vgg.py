"""VGG16 and VGG19 (Simonyan and Zisserman, 2015) with Chainer's layer
names, for feature extraction and classification."""
import collections

from chainer_core import initializers
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.activation.softmax import softmax
from chainer_core.functions.noise.dropout import dropout
from chainer_core.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer_core.link import Chain
from chainer_core.links.connection.convolution_2d import Convolution2D
from chainer_core.links.connection.linear import Linear
from chainer_core.links.model.vision import _util
from chainer_core.serializers import npz

# Chainer's flag for whether image preprocessing can be used (it needs
# PIL there); here it is done in NumPy, so it always can.
available = True

_MEAN_BGR = (103.939, 116.779, 123.68)

# Convolution blocks: output channels and the number of 3x3 convolutions.
_BLOCKS = {16: ((64, 2), (128, 2), (256, 3), (512, 3), (512, 3)),
           19: ((64, 2), (128, 2), (256, 4), (512, 4), (512, 4))}

_FILES = {16: ('VGG_ILSVRC_16_layers.npz',
               'VGG_ILSVRC_16_layers.caffemodel (the VGG team)'),
          19: ('VGG_ILSVRC_19_layers.npz',
               'VGG_ILSVRC_19_layers.caffemodel (the VGG team)')}


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=2)


def prepare(image, size=(224, 224)):
    """The VGG input of one image: RGB image (PIL image or array of shape
    (H, W), (H, W, C) or (C, H, W), 8-bit values) resized to ``size``
    ``(width, height)`` (None: kept), in BGR order minus the mean pixel
    ``(103.939, 116.779, 123.68)``, as a float32 (3, H, W) array. Resizing
    is bilinear, in NumPy."""
    return _util.prepare_image(image, size, _MEAN_BGR)


class VGGLayers(Chain):
    """VGG network with 16 or 19 weight layers.

    Layers (``available_layers``): ``conv1_1`` ... ``conv5_3`` (or
    ``conv5_4``), ``pool1`` ... ``pool5``, ``fc6``, ``fc7``, ``fc8`` and
    ``prob``. The fully connected layers expect 224x224 inputs; the
    convolutional part takes any size of at least 32x32.

    Args:
        pretrained_model (str or None): ``'auto'`` loads
            ``VGG_ILSVRC_16_layers.npz`` (or ``_19_``) from the models
            folder under Chainer's dataset root
            (``<root>/pfnet/chainer/models``, the root being
            ``$CHAINER_DATASET_ROOT`` or ``~/.chainer/dataset``); a path loads
            that npz file; None keeps the random initialization of the
            paper (weights normal with standard deviation 0.01, biases
            zero). Nothing is downloaded: a missing file is an error that
            says where to put it.
        n_layers (int): 16 or 19.
    """

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError('VGGLayers: n_layers must be 16 or 19, got {!r}'
                             .format(n_layers))
        path = None
        if pretrained_model:
            filename, source = _FILES[n_layers]
            path = _util.pretrained_path(type(self).__name__,
                                         pretrained_model, filename, source)
            # The weights are overwritten: skip the costly random draw.
            init = dict(initialW=initializers.Zero(),
                        initial_bias=initializers.Zero())
        else:
            init = dict(initialW=initializers.Normal(0.01),
                        initial_bias=initializers.Zero())
        self.n_layers = n_layers
        self._conv_names = []
        in_channels = 3
        with self.init_scope():
            for block, (channels, n_convs) in enumerate(_BLOCKS[n_layers], 1):
                names = []
                for i in range(1, n_convs + 1):
                    name = 'conv{}_{}'.format(block, i)
                    setattr(self, name, Convolution2D(
                        in_channels, channels, 3, 1, 1, **init))
                    names.append(name)
                    in_channels = channels
                self._conv_names.append(names)
            self.fc6 = Linear(512 * 7 * 7, 4096, **init)
            self.fc7 = Linear(4096, 4096, **init)
            self.fc8 = Linear(4096, 1000, **init)
        if path is not None:
            npz.load_npz(path, self)

    @property
    def functions(self):
        """The layers in order: ``{name: [callables]}``."""
        pairs = []
        for block, names in enumerate(self._conv_names, 1):
            for name in names:
                pairs.append((name, [getattr(self, name), relu]))
            pairs.append(('pool{}'.format(block), [_max_pooling_2d]))
        pairs += [('fc6', [self.fc6, relu, dropout]),
                  ('fc7', [self.fc7, relu, dropout]),
                  ('fc8', [self.fc8]),
                  ('prob', [softmax])]
        return collections.OrderedDict(pairs)

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
        """The activations of ``layers`` (default ``['fc7']``) for a list of
        images, each prepared by :func:`prepare` with ``size``. The train
        and backprop configuration are left as they are: wrap the call in
        ``chainer.using_config('train', False)`` for inference."""
        return _util.extract(self, images, ['fc7'] if layers is None
                             else layers, size, prepare)

    def predict(self, images, oversample=True):
        """Class probabilities ``(N, 1000)`` of a list of images: each
        resized to 256x256, then averaged over ten 224x224 crops
        (``oversample``) or taken from the centre crop; in test mode without
        backprop."""
        return _util.predict(self, images, oversample, prepare)


class VGG16Layers(VGGLayers):
    """:class:`VGGLayers` with 16 weight layers."""

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """:class:`VGGLayers` with 19 weight layers."""

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)
