"""ResNet-50/101/152 (He et al., 2016) with Chainer's layer names, for
feature extraction and classification."""
import collections

from chainer_core import initializers
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.activation.softmax import softmax
from chainer_core.functions.array.reshape import reshape
from chainer_core.functions.pooling.average_pooling_2d import (
    average_pooling_2d)
from chainer_core.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer_core.link import Chain
from chainer_core.links.connection.convolution_2d import Convolution2D
from chainer_core.links.connection.linear import Linear
from chainer_core.links.model.vision import _util
from chainer_core.serializers import npz
from chainer_core.links.normalization.batch_normalization import (
    BatchNormalization)

# Chainer's flag for whether image preprocessing can be used (it needs
# PIL there); here it is done in NumPy, so it always can.
available = True

_MEAN_BGR = (103.063, 115.903, 123.152)

_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling_2d(x):
    n, channels, rows, cols = x.shape
    h = average_pooling_2d(x, (rows, cols), stride=1)
    return reshape(h, (n, channels))


def prepare(image, size=(224, 224)):
    """The ResNet input of one image: RGB image (PIL image or array of
    shape (H, W), (H, W, C) or (C, H, W), 8-bit values) resized to
    ``size`` ``(width, height)`` (None: kept), in BGR order minus the mean
    pixel ``(103.063, 115.903, 123.152)``, as a float32 (3, H, W) array.
    Resizing is bilinear, in NumPy."""
    return _util.prepare_image(image, size, _MEAN_BGR)


class BottleneckA(Chain):
    """Bottleneck block that changes the channels (and with ``stride`` the
    size): 1x1, 3x3, 1x1 convolutions with batch normalization, plus a
    projection shortcut (``conv4``, ``bn4``).

    Args:
        in_channels (int): input channels.
        mid_channels (int): channels of the 3x3 convolution.
        out_channels (int): output channels.
        stride (int): stride of the block.
        initialW: initializer of the convolution weights.
        downsample_fb (bool): stride on the 3x3 convolution (Facebook's
            ResNet) instead of the first 1x1 (the original MSRA ResNet).
    """

    def __init__(self, in_channels, mid_channels, out_channels, stride=2,
                 initialW=None, downsample_fb=False):
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else \
            (stride, 1)
        conv = dict(initialW=initialW, nobias=True)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1,
                                       stride_1x1, 0, **conv)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3,
                                       stride_3x3, 1, **conv)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, out_channels, 1, 1, 0,
                                       **conv)
            self.bn3 = BatchNormalization(out_channels)
            self.conv4 = Convolution2D(in_channels, out_channels, 1, stride,
                                       0, **conv)
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x):
        h1 = relu(self.bn1(self.conv1(x)))
        h1 = relu(self.bn2(self.conv2(h1)))
        h1 = self.bn3(self.conv3(h1))
        h2 = self.bn4(self.conv4(x))
        return relu(h1 + h2)


class BottleneckB(Chain):
    """Bottleneck block keeping the channels: 1x1, 3x3, 1x1 convolutions
    with batch normalization, plus the identity shortcut.

    Args:
        in_channels (int): input (and output) channels.
        mid_channels (int): channels of the 3x3 convolution.
        initialW: initializer of the convolution weights.
    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        conv = dict(initialW=initialW, nobias=True)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, 1, 0,
                                       **conv)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3, 1, 1,
                                       **conv)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, in_channels, 1, 1, 0,
                                       **conv)
            self.bn3 = BatchNormalization(in_channels)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + x)


class BuildingBlock(Chain):
    """A :class:`BottleneckA` (``a``) followed by ``n_layer - 1``
    :class:`BottleneckB` blocks (``b1``, ``b2``, ...).

    Args:
        n_layers (int): the number of bottleneck blocks (``n_layer``, its
            former name, is accepted as a keyword).
        in_channels (int): input channels.
        mid_channels (int): channels of the 3x3 convolutions.
        out_channels (int): output channels.
        stride (int): stride of the first block.
        initialW: initializer of the convolution weights.
        downsample_fb (bool): see :class:`BottleneckA`.
    """

    def __init__(self, n_layers=None, in_channels=None, mid_channels=None,
                 out_channels=None, stride=None, initialW=None,
                 downsample_fb=None, **kwargs):
        n_layer = kwargs.pop('n_layer', None)
        if kwargs:
            raise TypeError('BuildingBlock() got unexpected keyword '
                            'argument(s) {}'.format(', '.join(sorted(kwargs))))
        if n_layer is not None:
            if n_layers is not None:
                raise TypeError('BuildingBlock: give n_layers or its former '
                                'name n_layer, not both')
            n_layers = n_layer
        missing = [name for name, v in (
            ('n_layers', n_layers), ('in_channels', in_channels),
            ('mid_channels', mid_channels), ('out_channels', out_channels),
            ('stride', stride)) if v is None]
        if missing:
            raise TypeError('BuildingBlock: missing the argument(s) {}'
                            .format(', '.join(missing)))
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels,
                                 stride, initialW, bool(downsample_fb))
            self._forward = ['a']
            for i in range(1, n_layers):
                name = 'b{}'.format(i)
                setattr(self, name, BottleneckB(out_channels, mid_channels,
                                                initialW))
                self._forward.append(name)

    def forward(self, x):
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


class ResNetLayers(Chain):
    """Residual network with 50, 101 or 152 layers.

    Layers (``available_layers``): ``conv1``, ``pool1``, ``res2`` ...
    ``res5``, ``pool5`` (global average pooling, so any input of at least
    32x32 works), ``fc6`` and ``prob``.

    Args:
        pretrained_model (str or None): ``'auto'`` loads
            ``ResNet-<n_layers>-model.npz`` from the models folder under
            Chainer's dataset root
            (``<root>/pfnet/chainer/models``, the root being
            ``$CHAINER_DATASET_ROOT`` or ``~/.chainer/dataset``); a path loads
            that npz file; None keeps a random initialization (He normal
            convolution weights). Nothing is downloaded: a missing file is
            an error that says where to put it.
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): downsample on the 3x3 convolutions, as in
            Facebook's ResNet (there are no pre-trained weights for it).
    """

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError('ResNetLayers: n_layers must be 50, 101 or 152, '
                             'got {!r}'.format(n_layers))
        if pretrained_model and downsample_fb:
            raise ValueError('ResNetLayers: there are no pre-trained weights '
                             'for downsample_fb=True; pass '
                             'pretrained_model=None')
        path = None
        if pretrained_model:
            path = _util.pretrained_path(
                type(self).__name__, pretrained_model,
                'ResNet-{}-model.npz'.format(n_layers),
                'ResNet-{}-model.caffemodel (Kaiming He, '
                'github.com/KaimingHe/deep-residual-networks)'.format(
                    n_layers))
            # The weights are overwritten: skip the costly random draw.
            initial_w = initializers.Zero()
        else:
            initial_w = initializers.HeNormal(scale=1.0)
        block = _BLOCKS[n_layers]
        self.n_layers = n_layers
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initial_w)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(block[0], 64, 64, 256, 1, initial_w,
                                      downsample_fb)
            self.res3 = BuildingBlock(block[1], 256, 128, 512, 2, initial_w,
                                      downsample_fb)
            self.res4 = BuildingBlock(block[2], 512, 256, 1024, 2, initial_w,
                                      downsample_fb)
            self.res5 = BuildingBlock(block[3], 1024, 512, 2048, 2,
                                      initial_w, downsample_fb)
            self.fc6 = Linear(2048, 1000)
        if path is not None:
            npz.load_npz(path, self)

    @property
    def functions(self):
        """The layers in order: ``{name: [callables]}``."""
        return collections.OrderedDict([
            ('conv1', [self.conv1, self.bn1, relu]),
            ('pool1', [_max_pooling_2d]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [_global_average_pooling_2d]),
            ('fc6', [self.fc6]),
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


class ResNet50Layers(ResNetLayers):
    """:class:`ResNetLayers` with 50 layers."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 50, downsample_fb)


class ResNet101Layers(ResNetLayers):
    """:class:`ResNetLayers` with 101 layers."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 101, downsample_fb)


class ResNet152Layers(ResNetLayers):
    """:class:`ResNetLayers` with 152 layers."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 152, downsample_fb)
