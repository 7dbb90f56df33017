import math

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_cv.links.connection import Conv2DBNActiv
from chainer_cv.links.model import _pretrained
from chainer_cv.links.model import _segmentation
from chainer_cv.links.model.pickable_sequential_chain import \
    PickableSequentialChain
from chainer_cv.links.model.pspnet.transforms import convolution_crop
from chainer_cv.links.model.resnet import ResBlock

# RGB means of ILSVRC2012, as PSPNet's weights expect.
_imagenet_mean = numpy.array((123.68, 116.779, 103.939),
                             dtype=numpy.float32)[:, None, None]


class PyramidPoolingModule(chainer.ChainList):
    """The pyramid pooling module: the input, concatenated with its
    averages over grids of each size in ``pyramids``, each reduced by a
    1x1 convolution (the children ``0``, ``1`` ...) and upsampled back.

    Args:
        in_channels (int): input channels; each pooled branch has
            ``in_channels // len(pyramids)``.
        feat_size (pair of ints): the size ``(H, W)`` the pooling windows
            are sized for (``feat_size // pyramid`` each).
        pyramids (sequence of ints): grid sizes.
        initialW (callable): initializer of the convolutions.
    """

    def __init__(self, in_channels, feat_size, pyramids, initialW=None):
        out_channels = in_channels // len(pyramids)
        super().__init__(*[
            Conv2DBNActiv(in_channels, out_channels, 1, 1, 0, 1,
                          initialW=initialW) for _ in pyramids])
        self.ksizes = [(int(feat_size[0] // p), int(feat_size[1] // p))
                       for p in pyramids]

    def forward(self, x):
        ys = [x]
        for conv, ksize in zip(self, self.ksizes):
            y = conv(F.average_pooling_2d(x, ksize, ksize))
            ys.append(F.resize_images(y, x.shape[2:]))
        return F.concat(ys, axis=1)


_dilated_resnet_files = {
    50: 'pspnet_resnet50_imagenet_trained_2018_11_26.npz',
    101: 'pspnet_resnet101_imagenet_trained_2018_11_26.npz',
}


class DilatedResNet(PickableSequentialChain):
    """A ResNet with a deep stem (three 3x3 convolutions) whose last two
    stages are dilated instead of strided: output stride 8.

    The layers are ``conv1_1, conv1_2, conv1_3, pool1, res2, res3, res4,
    res5``.

    Args:
        n_layer (int): 50 or 101.
        pretrained_model (str): ``'imagenet'`` (ChainerCV's weights,
            looked for in ChainerCV's model directory), the path of an
            npz file, or None.
        initialW (callable): initializer of the convolutions.
    """

    _blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3)}

    def __init__(self, n_layer, pretrained_model=None, initialW=None):
        if n_layer not in self._blocks:
            raise ValueError('DilatedResNet: n_layer must be one of {}, got '
                             '{!r}'.format(sorted(self._blocks), n_layer))
        models = {'imagenet': {'param': {}, 'overwritable': (),
                               'file': _dilated_resnet_files[n_layer]}}
        _, path = _pretrained.prepare('DilatedResNet', {}, pretrained_model,
                                      models, {})
        n_block = self._blocks[n_layer]
        super().__init__()
        with self.init_scope():
            self.conv1_1 = Conv2DBNActiv(None, 64, 3, 2, 1, 1,
                                         initialW=initialW)
            self.conv1_2 = Conv2DBNActiv(64, 64, 3, 1, 1, 1,
                                         initialW=initialW)
            self.conv1_3 = Conv2DBNActiv(64, 128, 3, 1, 1, 1,
                                         initialW=initialW)
            self.pool1 = _max_pooling
            self.res2 = ResBlock(n_block[0], 128, 64, 256, 1, 1,
                                 initialW=initialW)
            self.res3 = ResBlock(n_block[1], 256, 128, 512, 2, 1,
                                 initialW=initialW)
            self.res4 = ResBlock(n_block[2], 512, 256, 1024, 1, 2,
                                 initialW=initialW)
            self.res5 = ResBlock(n_block[3], 1024, 512, 2048, 1, 4,
                                 initialW=initialW)
        _pretrained.load(path, self)


def _max_pooling(x):
    return F.max_pooling_2d(x, 3, 2, 1)


class PSPNet(chainer.Chain):
    """Pyramid Scene Parsing Network (`Zhao et al.
    <https://arxiv.org/abs/1612.01105>`_).

    The children are ``extractor`` (a :class:`DilatedResNet` returning
    ``res4`` and ``res5``), ``ppm`` (a :class:`PyramidPoolingModule` of
    grids 6, 3, 2, 1 sized for ``input_size // 8``), ``head_conv1`` and
    ``head_conv2``, as in ChainerCV. A subclass sets the class attributes
    ``_extractor_kwargs`` (those of :class:`DilatedResNet`) and
    ``_models`` (the known weights).

    :meth:`predict` runs an image, less the mean, in ``input_size``
    windows: an image whose longer side fits in the longer side of
    ``input_size`` is shrunk if needed to fit in it, centred on a zero
    canvas; a larger one is covered by windows at strides of two thirds
    of ``input_size``, their probabilities averaged where they overlap.
    Each window is also run mirrored. With :attr:`scales` (None by
    default) set to a tuple, the image is run resized by each scale and
    the probabilities averaged.

    Args:
        n_class (int): classes; by default those of the pretrained model.
        pretrained_model (str): a name in ``_models`` (ChainerCV's
            weights, looked for in ChainerCV's model directory, never
            downloaded), ``'imagenet'`` (the extractor's ImageNet
            weights), the path of an npz file, or None.
        input_size (int or pair of ints): the window ``(H, W)``;
            ``(713, 713)`` by default.
        initialW (callable): initializer of the convolutions (zero when
            weights are loaded, which replace them anyway).
    """

    _extractor_kwargs = {}
    _models = {}

    def __init__(self, n_class=None, pretrained_model=None,
                 input_size=None, initialW=None):
        extractor_pretrained_model = None
        if pretrained_model == 'imagenet':
            extractor_pretrained_model, pretrained_model = 'imagenet', None
        name = type(self).__name__
        param, path = _pretrained.prepare(
            name, {'n_class': n_class, 'input_size': input_size},
            pretrained_model, self._models, {'input_size': (713, 713)})
        if param['n_class'] is None:
            raise ValueError('{}: n_class is required unless '
                             'pretrained_model is one of {}'.format(
                                 name, sorted(self._models)))
        input_size = param['input_size']
        if not isinstance(input_size, (list, tuple)):
            input_size = (int(input_size), int(input_size))
        if min(input_size) < 48:
            raise ValueError('{}: input_size must be at least 48 (the '
                             'pyramid pooling needs a 6 x 6 feature), got '
                             '{}'.format(name, input_size))
        self.input_size = tuple(input_size)
        if initialW is None and pretrained_model:
            initialW = chainer.initializers.Zero()
        self.scales = None
        self.mean = _imagenet_mean
        super().__init__()
        with self.init_scope():
            self.extractor = DilatedResNet(
                pretrained_model=extractor_pretrained_model,
                initialW=initialW, **self._extractor_kwargs)
            self.extractor.pick = ('res4', 'res5')
            self.ppm = PyramidPoolingModule(
                2048, (input_size[0] // 8, input_size[1] // 8),
                (6, 3, 2, 1), initialW=initialW)
            self.head_conv1 = Conv2DBNActiv(4096, 512, 3, 1, 1,
                                            initialW=initialW)
            self.head_conv2 = L.Convolution2D(512, param['n_class'], 1, 1, 0,
                                              False, initialW)
        _pretrained.load(path, self)

    @property
    def n_class(self):
        return self.head_conv2.out_channels

    def forward(self, x):
        """Scores ``(B, n_class, H, W)`` of images ``(B, 3, H, W)``."""
        _, res5 = self.extractor(x)
        h = self.head_conv2(self.head_conv1(self.ppm(res5)))
        return F.resize_images(h, x.shape[2:])

    def _probabilities(self, imgs):
        """Probabilities of each image ``(B, 3, H, W)`` and of its mirror
        image mirrored back, on the CPU, in one batch."""
        x = numpy.concatenate((imgs, imgs[:, :, :, ::-1]))
        score = F.softmax(self.forward(self.device.send(x)))
        score = numpy.asarray(chainer.backend.CpuDevice().send(score.array))
        return score[:len(imgs)], score[len(imgs):, :, :, ::-1]

    def _tile_predict(self, img):
        """Probabilities ``(n_class, H, W)`` of one image."""
        img = img - self.mean
        _, H, W = img.shape
        if max(H, W) > max(self.input_size):
            stride = tuple(int(math.ceil(s * 2 / 3)) for s in self.input_size)
            crops, param = convolution_crop(img, self.input_size, stride,
                                            return_param=True)
            score = numpy.zeros((self.n_class, H, W), numpy.float32)
            count = numpy.zeros((H, W), numpy.float32)
            for i, crop in enumerate(crops):
                y, x = param['y_slices'][i], param['x_slices'][i]
                cy, cx = param['crop_y_slices'][i], param['crop_x_slices'][i]
                for s in self._probabilities(crop[None]):
                    score[:, y, x] += s[0, :, cy, cx]
                count[y, x] += 2
            score /= count
        else:
            ratio = min(self.input_size[0] / H, self.input_size[1] / W, 1.)
            h, w = int(H * ratio), int(W * ratio)
            if ratio < 1:
                img = _segmentation.resize(img, (h, w))
            top = (self.input_size[0] - h) // 2
            left = (self.input_size[1] - w) // 2
            canvas = numpy.zeros((3,) + self.input_size, numpy.float32)
            canvas[:, top:top + h, left:left + w] = img
            plain, mirror = self._probabilities(canvas[None])
            score = ((plain + mirror) / 2)[0, :, top:top + h, left:left + w]
        return F.resize_images(score[None], (H, W)).array[0]

    def _multiscale_predict(self, img):
        _, H, W = img.shape
        score = 0
        for scale in self.scales:
            if scale == 1.0:
                score = score + self._tile_predict(img)
                continue
            size = (int(H * scale), int(W * scale))
            s = self._tile_predict(_segmentation.resize(img, size))
            score = score + F.resize_images(s[None], (H, W)).array[0]
        return score / len(self.scales)

    def predict(self, imgs):
        """Label maps of images.

        Args:
            imgs (iterable of numpy.ndarray): CHW images, RGB, float in
                ``[0, 255]``; their sizes may differ.

        Returns:
            list of numpy.ndarray: an int32 label map ``(H, W)`` for each
            image, of its size.
        """
        return _segmentation.label_maps(
            imgs, self._tile_predict if self.scales is None
            else self._multiscale_predict)


def _trained(depth, n_class, input_size, dataset, date):
    return {'param': {'n_class': n_class, 'input_size': input_size},
            'overwritable': (),
            'file': 'pspnet_resnet{}_{}_trained_{}.npz'.format(
                depth, dataset, date)}


class PSPNetResNet101(PSPNet):
    """PSPNet on :class:`DilatedResNet` of 101 layers.

    Known weights (ChainerCV's): ``'cityscapes'`` (19 classes, input
    713 x 713) and ``'ade20k'`` (150 classes, input 473 x 473).
    """

    _extractor_kwargs = {'n_layer': 101}
    _models = {
        'cityscapes': _trained(101, 19, (713, 713), 'cityscapes',
                               '2018_12_19'),
        'ade20k': _trained(101, 150, (473, 473), 'ade20k', '2018_12_23'),
    }


class PSPNetResNet50(PSPNet):
    """PSPNet on :class:`DilatedResNet` of 50 layers.

    Known weights (ChainerCV's): ``'cityscapes'`` (19 classes, input
    713 x 713) and ``'ade20k'`` (150 classes, input 473 x 473).
    """

    _extractor_kwargs = {'n_layer': 50}
    _models = {
        'cityscapes': _trained(50, 19, (713, 713), 'cityscapes',
                               '2018_12_19'),
        'ade20k': _trained(50, 150, (473, 473), 'ade20k', '2018_12_23'),
    }
