import functools

import numpy

import chainer_core.functions as F
from chainer_core.initializers import constant
from chainer_core.initializers import normal
import chainer_core.links as L

from chainer_cv.links.connection.conv_2d_activ import Conv2DActiv
from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.pickable_sequential_chain import \
    PickableSequentialChain

# RGB means of ILSVRC2012 the converted Caffe weights expect.
_imagenet_mean = numpy.array([123.68, 116.779, 103.939],
                             dtype=numpy.float32)[:, None, None]


class VGG16(PickableSequentialChain):
    """VGG-16 (`Simonyan and Zisserman <https://arxiv.org/abs/1409.1556>`_).

    A :class:`~chainercv.links.PickableSequentialChain`: the layers are
    ``conv1_1, conv1_2, pool1, conv2_1, conv2_2, pool2, conv3_1 ...
    conv3_3, pool3, conv4_1 ... conv4_3, pool4, conv5_1 ... conv5_3,
    pool5, fc6, fc6_relu, fc6_dropout, fc7, fc7_relu, fc7_dropout, fc8,
    prob``; a call returns ``prob`` (softmax scores) unless :obj:`pick`
    says otherwise. With :class:`~chainercv.links.FeaturePredictor`
    (crop 224) it predicts classes of images.

    Args:
        n_class (int): classes; by default those of the pretrained model,
            else 1000.
        pretrained_model (str): ``'imagenet'`` (the converted Caffe
            weights, from ChainerCV's model directory, see
            :func:`local_weight_path`), the path of an npz file, or None
            for random weights.
        mean (numpy.ndarray): the mean of the images, ``(3, 1, 1)``; by
            default the ImageNet mean.
        initialW (callable): weight initializer (default
            ``Normal(0.01)``).
        initial_bias (callable): bias initializer (default zeros).
    """

    _models = {
        'imagenet': {
            'param': {'n_class': 1000, 'mean': _imagenet_mean},
            'overwritable': ('mean',),
            'file': 'vgg16_imagenet_converted_2017_07_18.npz',
        },
    }

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, initial_bias=None):
        param, path = _pretrained.prepare(
            'VGG16', {'n_class': n_class, 'mean': mean}, pretrained_model,
            self._models, {'n_class': 1000, 'mean': _imagenet_mean})
        self.mean = param['mean']
        if initialW is None:
            initialW = normal.Normal(0.01)
        if path:
            # The weights are overwritten: skip sampling them.
            initialW = constant.Zero()
        kwargs = {'initialW': initialW, 'initial_bias': initial_bias}
        pool = functools.partial(F.max_pooling_2d, ksize=2, stride=2)

        super().__init__()
        with self.init_scope():
            for stage, (n_conv, channels) in enumerate(
                    ((2, 64), (2, 128), (3, 256), (3, 512), (3, 512)), 1):
                for i in range(1, n_conv + 1):
                    setattr(self, 'conv{}_{}'.format(stage, i),
                            Conv2DActiv(None, channels, 3, 1, 1, **kwargs))
                setattr(self, 'pool{}'.format(stage), pool)
            self.fc6 = L.Linear(None, 4096, **kwargs)
            self.fc6_relu = F.relu
            self.fc6_dropout = F.dropout
            self.fc7 = L.Linear(None, 4096, **kwargs)
            self.fc7_relu = F.relu
            self.fc7_dropout = F.dropout
            self.fc8 = L.Linear(None, param['n_class'], **kwargs)
            self.prob = F.softmax
        _pretrained.load(path, self)
