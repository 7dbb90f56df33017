import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_cv.links.connection import Conv2DBNActiv
from chainer_cv.links.model import _pretrained
from chainer_cv.links.model import _segmentation
from chainer_cv.links.connection import SeparableConv2DBNActiv
from chainer_cv.links.model.deeplab.aspp import SeparableASPP
from chainer_cv.links.model.deeplab.xception import Xception65


class Decoder(chainer.Chain):
    """The decoder of DeepLab v3+: the low-level feature projected by
    ``feature_proj``, concatenated with the upsampled ASPP output, and
    two separable convolutions ``conv1``, ``conv2`` before the 1x1
    convolution ``conv_logits``.

    Args:
        in_channels (int): channels of the low-level feature and of the
            ASPP output.
        out_channels (int): classes.
        proj_channels (int): output channels of ``feature_proj``.
        depth_channels (int): output channels of ``conv1`` and ``conv2``.
        bn_kwargs (dict): keyword arguments of the normalizations of
            ``conv1`` and ``conv2`` (``feature_proj`` keeps the defaults,
            as in ChainerCV, whose converted weights assume them).
    """

    def __init__(self, in_channels, out_channels, proj_channels,
                 depth_channels, bn_kwargs={}):
        super().__init__()
        with self.init_scope():
            self.feature_proj = Conv2DBNActiv(in_channels, proj_channels, 1)
            self.conv1 = SeparableConv2DBNActiv(
                in_channels + proj_channels, depth_channels, 3, 1, 1, 1,
                nobias=True, dw_activ=F.relu, pw_activ=F.relu,
                bn_kwargs=bn_kwargs)
            self.conv2 = SeparableConv2DBNActiv(
                depth_channels, depth_channels, 3, 1, 1, 1, nobias=True,
                dw_activ=F.relu, pw_activ=F.relu, bn_kwargs=bn_kwargs)
            self.conv_logits = L.Convolution2D(
                depth_channels, out_channels, 1, 1, 0)

    def forward(self, x, pool):
        """Logits at the resolution of the low-level feature ``x``, from
        it and the ASPP output ``pool``."""
        x = self.feature_proj(x)
        pool = F.resize_images(pool, x.shape[2:])
        h = F.concat((pool, x), axis=1)
        return self.conv_logits(self.conv2(self.conv1(h)))


class DeepLabV3plus(chainer.Chain):
    """DeepLab v3+ (`Chen et al. <https://arxiv.org/abs/1802.02611>`_):
    a feature extractor, ASPP and a decoder, the children
    ``feature_extractor``, ``aspp`` and ``decoder``.

    Args:
        feature_extractor (chainer.Link): returns ``(lowlevel,
            highlevel)`` features of a batch; its ``mean`` pads images.
        aspp (chainer.Link): turns the high-level feature into the
            decoder's input.
        decoder (chainer.Link): turns ``(lowlevel, aspp output)`` into
            logits.
        min_input_size (int or pair of ints): images smaller than this
            ``(H, W)`` are padded (bottom and right, with the mean) to it.
        scales (tuple of floats): the scales :meth:`predict` runs each
            image at, its probabilities averaged.
        flip (bool): :meth:`predict` also runs the mirror image at each
            scale.
    """

    def __init__(self, feature_extractor, aspp, decoder, min_input_size,
                 scales=(1.0,), flip=False):
        super().__init__()
        if not isinstance(min_input_size, (list, tuple)):
            min_input_size = (int(min_input_size), int(min_input_size))
        self.min_input_size = tuple(min_input_size)
        self.scales = scales
        self.flip = flip
        with self.init_scope():
            self.feature_extractor = feature_extractor
            self.aspp = aspp
            self.decoder = decoder

    def prepare(self, image):
        """An image padded to at least ``min_input_size`` (bottom and
        right, with the extractor's mean) and scaled to ``[-1, 1]``.

        Args:
            image (numpy.ndarray): a CHW image, RGB, in ``[0, 255]``.

        Returns:
            numpy.ndarray: the float32 input of the network.
        """
        _, H, W = image.shape
        h = max(self.min_input_size[0], H)
        w = max(self.min_input_size[1], W)
        padded = numpy.empty((3, h, w), numpy.float32)
        padded[...] = self.feature_extractor.mean
        padded[:, :H, :W] = image
        return padded / 127.5 - 1.0

    def forward(self, x):
        lowlevel, highlevel = self.feature_extractor(x)
        return self.decoder(lowlevel, self.aspp(highlevel))

    def _probabilities(self, img, scale, flip):
        """Class probabilities ``(n_class, H, W)`` of ``img`` seen at
        ``scale``, mirrored when ``flip``, on the CPU."""
        if flip:
            img = img[:, :, ::-1]
        _, H, W = img.shape
        h, w = H, W
        if scale != 1.0:
            h, w = int(H * scale), int(W * scale)
            img = _segmentation.resize(img, (h, w))
        x = self.prepare(img)
        score = F.softmax(self.forward(self.device.send(x[None])), axis=1)
        score = F.resize_images(score, x.shape[1:])[0, :, :h, :w]
        score = numpy.asarray(chainer.backend.CpuDevice().send(score.array))
        if scale != 1.0:
            score = _segmentation.resize(score, (H, W))
        return score[:, :, ::-1] if flip else score

    def predict(self, imgs):
        """Label maps of images: the argmax of the probabilities averaged
        over ``scales`` (and mirror images when ``flip``).

        Args:
            imgs (iterable of numpy.ndarray): CHW images, RGB, float in
                ``[0, 255]``; their sizes may differ.

        Returns:
            list of numpy.ndarray: an int32 label map ``(H, W)`` for each
            image, of its size.
        """
        flips = (False, True) if self.flip else (False,)
        return _segmentation.label_maps(imgs, lambda img: sum(
            self._probabilities(img, scale, flip)
            for scale in self.scales for flip in flips))


def _bn_kwargs(eps):
    # The moments of TensorFlow's DeepLab, from which the weights come.
    return {'bn_kwargs': {'decay': 0.9997, 'eps': eps}}


def _trained(n_class, min_input_size, file):
    return {'param': {'n_class': n_class, 'min_input_size': min_input_size,
                      'scales': (1.0,), 'flip': False,
                      'extractor_kwargs': _bn_kwargs(1e-3),
                      'aspp_kwargs': _bn_kwargs(1e-5),
                      'decoder_kwargs': _bn_kwargs(1e-5)},
            'overwritable': ('scales', 'flip'), 'file': file}


_models = {
    'voc': _trained(21, (513, 513),
                    'deeplabv3plus_xception65_voc_converted_2019_02_15.npz'),
    'cityscapes': _trained(
        19, (1025, 2049),
        'deeplabv3plus_xception65_cityscapes_converted_2019_02_15.npz'),
    'ade20k': _trained(
        150, (513, 513),
        'deeplabv3plus_xception65_ade20k_converted_2019_03_08.npz'),
}


class DeepLabV3plusXception65(DeepLabV3plus):
    """DeepLab v3+ with Xception-65: :class:`DeepLabV3plus` of
    :class:`Xception65`, :class:`SeparableASPP` (256 channels) and
    :class:`Decoder` (48 projected channels, 256 deep).

    Args:
        n_class (int): classes; by default those of the pretrained model.
        pretrained_model (str): ``'voc'``, ``'cityscapes'`` or
            ``'ade20k'`` (ChainerCV's weights converted from TensorFlow's
            DeepLab, looked for in ChainerCV's model directory and never
            downloaded), the path of an npz file, or None.
        min_input_size (int or pair of ints): see :class:`DeepLabV3plus`;
            ``(513, 513)`` by default, ``(1025, 2049)`` for Cityscapes.
        scales (tuple of floats): see :class:`DeepLabV3plus`; ``(1.0,)``
            by default.
        flip (bool): see :class:`DeepLabV3plus`; False by default.
        extractor_kwargs, aspp_kwargs, decoder_kwargs (dict): keyword
            arguments of the three parts (``bn_kwargs``); the pretrained
            models fix them.
    """

    def __init__(self, n_class=None, pretrained_model=None,
                 min_input_size=None, scales=None, flip=None,
                 extractor_kwargs=None, aspp_kwargs=None,
                 decoder_kwargs=None):
        param, path = _pretrained.prepare(
            'DeepLabV3plusXception65',
            {'n_class': n_class, 'min_input_size': min_input_size,
             'scales': scales, 'flip': flip,
             'extractor_kwargs': extractor_kwargs,
             'aspp_kwargs': aspp_kwargs, 'decoder_kwargs': decoder_kwargs},
            pretrained_model, _models,
            {'min_input_size': (513, 513), 'scales': (1.0,), 'flip': False,
             'extractor_kwargs': {}, 'aspp_kwargs': {},
             'decoder_kwargs': {}})
        if param['n_class'] is None:
            raise ValueError('DeepLabV3plusXception65: n_class is required '
                             'unless pretrained_model is one of {}'.format(
                                 sorted(_models)))
        super().__init__(
            Xception65(**param['extractor_kwargs']),
            SeparableASPP(2048, 256, **param['aspp_kwargs']),
            Decoder(256, param['n_class'], 48, 256,
                    **param['decoder_kwargs']),
            min_input_size=param['min_input_size'], scales=param['scales'],
            flip=param['flip'])
        _pretrained.load(path, self)
