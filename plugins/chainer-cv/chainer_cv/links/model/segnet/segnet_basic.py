import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model import _segmentation

_models = {
    'camvid': {'param': {'n_class': 11}, 'overwritable': (),
               'file': 'segnet_camvid_trained_2018_12_05.npz'},
}

_ENCODERS = ('conv1', 'conv2', 'conv3', 'conv4')
_DECODERS = ('conv_decode4', 'conv_decode3', 'conv_decode2', 'conv_decode1')


class SegNetBasic(chainer.Chain):
    """SegNet Basic (`Badrinarayanan et al.
    <https://arxiv.org/abs/1511.00561>`_) for semantic segmentation.

    Four encoders (7x7 convolution, batch normalization, ReLU, 2x2 max
    pooling) and four decoders (unpooling at the encoder's argmax, 7x7
    convolution, batch normalization) end in the 1x1 convolution
    ``conv_classifier``; the input first goes through a local response
    normalization. The children are ``conv1`` ... ``conv4``,
    ``conv_decode4`` ... ``conv_decode1`` (each with its normalization
    ``<name>_bn``) and ``conv_classifier``, as in ChainerCV, so that its
    weight files load.

    Args:
        n_class (int): classes; by default those of the pretrained model.
        pretrained_model (str): ``'camvid'`` (ChainerCV's weights trained
            on CamVid, 11 classes, looked for in ChainerCV's model
            directory and never downloaded), the path of an npz file, or
            None for random weights.
        initialW (callable): initializer of the convolutions (He normal
            by default).
    """

    def __init__(self, n_class=None, pretrained_model=None, initialW=None):
        param, path = _pretrained.prepare(
            'SegNetBasic', {'n_class': n_class}, pretrained_model, _models,
            {})
        if param['n_class'] is None:
            raise ValueError('SegNetBasic: n_class is required unless '
                             'pretrained_model is one of {}'.format(
                                 sorted(_models)))
        self.n_class = param['n_class']
        if initialW is None:
            initialW = chainer.initializers.HeNormal()
        super().__init__()
        with self.init_scope():
            for i, name in enumerate(_ENCODERS + _DECODERS):
                setattr(self, name, L.Convolution2D(
                    None if i == 0 else 64, 64, 7, 1, 3, nobias=True,
                    initialW=initialW))
                # ChainerCV's weights were trained from this small shift.
                setattr(self, name + '_bn',
                        L.BatchNormalization(64, initial_beta=0.001))
            self.conv_classifier = L.Convolution2D(
                64, self.n_class, 1, 1, 0, initialW=initialW)
        _pretrained.load(path, self)

    @staticmethod
    def _unpool(x, indexes):
        # An odd side was pooled into one more row (cover_all), which the
        # decoder's output does not have after the previous unpooling.
        h = min(x.shape[2], indexes.shape[2])
        w = min(x.shape[3], indexes.shape[3])
        if x.shape[2:] != (h, w):
            x = x[:, :, :h, :w]
        if indexes.shape[2:] != (h, w):
            indexes = indexes[:, :, :h, :w]
        return F.upsampling_2d(x, indexes, ksize=2, stride=2,
                               outsize=(2 * h, 2 * w))

    def forward(self, x):
        """Scores ``(B, n_class, H', W')`` of images ``(B, 3, H, W)``;
        ``H'``, ``W'`` are ``H``, ``W`` rounded up to even numbers (the
        first pooling covers an odd side)."""
        h = F.local_response_normalization(x, 5, 1, 1e-4 / 5., 0.75)
        indexes = []
        for name in _ENCODERS:
            h = F.relu(self[name + '_bn'](self[name](h)))
            h, index = F.max_pooling_2d(h, 2, 2, return_indices=True)
            indexes.append(index)
        # SegNet Basic's decoders have no activation.
        for name, index in zip(_DECODERS, reversed(indexes)):
            h = self._unpool(h, index)
            h = self[name + '_bn'](self[name](h))
        return self.conv_classifier(h)

    def predict(self, imgs):
        """Label maps of images.

        Args:
            imgs (iterable of numpy.ndarray): CHW images, RGB, float in
                ``[0, 255]``; their sizes may differ.

        Returns:
            list of numpy.ndarray: an int32 label map ``(H, W)`` for each
            image, of its size, with values in ``[0, n_class)``.
        """
        return _segmentation.label_maps(imgs, self._score)

    def _score(self, img):
        _, H, W = img.shape
        score = self.forward(self.device.send(img[None]))
        score = numpy.asarray(
            chainer.backend.CpuDevice().send(score.array))[0]
        if score.shape[1:] != (H, W):
            score = _segmentation.resize(score, (H, W))
        return score
