"""The layers every ResNet-like classifier here shares (ResNet, SE-ResNet,
SE-ResNeXt): a 7x7 stem, four stages of bottlenecks, global average
pooling and a fully connected layer."""
import functools

import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L

from chainer_cv.links.connection.conv_2d_bn_activ import Conv2DBNActiv
from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.pickable_sequential_chain import \
    PickableSequentialChain
from chainer_cv.links.model.resnet.resblock import ResBlock


def _global_average(x):
    return F.average(x, axis=(2, 3))


class BottleneckClassifier(PickableSequentialChain):
    """Layers ``conv1, pool1, res2, res3, res4, res5, pool5, fc6, prob``.

    Args:
        name (str): the model's name, for messages.
        blocks (tuple of 4 ints): bottlenecks per stage.
        mid_channels (tuple of 4 ints): bottleneck channels per stage
            (the outputs are 256, 512, 1024 and 2048).
        param (dict): ``n_class`` and ``mean`` (None: by
            ``pretrained_model`` or ``default``).
        pretrained_model, models, default: as
            :func:`~chainer_cv.links.model._pretrained.prepare`.
        initialW (callable): initializer of the convolutions (default
            ``HeNormal(fan_option='fan_out')``).
        fc_kwargs (dict): keyword arguments of ``fc6`` (its initializer
            defaults to ``Normal(0.01)``).
        conv1_no_bias (bool): no bias in the first convolution.
        groups (int): groups of the 3x3 convolutions.
        stride_first, add_seblock (bool): as :class:`ResBlock`.
    """

    def __init__(self, name, blocks, mid_channels, param, pretrained_model,
                 models, default, initialW=None, fc_kwargs={},
                 conv1_no_bias=True, groups=1, stride_first=False,
                 add_seblock=False):
        param, path = _pretrained.prepare(name, param, pretrained_model,
                                          models, default)
        self.mean = param['mean']
        if initialW is None:
            initialW = initializers.HeNormal(scale=1., fan_option='fan_out')
        fc_kwargs = dict(fc_kwargs)
        fc_kwargs.setdefault('initialW', initializers.Normal(scale=0.01))
        if path:
            # The weights are overwritten: skip sampling them.
            initialW = initializers.constant.Zero()
            fc_kwargs['initialW'] = initializers.constant.Zero()
        kwargs = {'initialW': initialW, 'groups': groups,
                  'stride_first': stride_first, 'add_seblock': add_seblock}

        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(None, 64, 7, 2, 3,
                                       nobias=conv1_no_bias,
                                       initialW=initialW)
            self.pool1 = functools.partial(F.max_pooling_2d, ksize=3,
                                           stride=2)
            for stage, (n_layer, mid, out, stride) in enumerate(zip(
                    blocks, mid_channels, (256, 512, 1024, 2048),
                    (1, 2, 2, 2)), 2):
                setattr(self, 'res{}'.format(stage), ResBlock(
                    n_layer, None, mid, out, stride, **kwargs))
            self.pool5 = _global_average
            self.fc6 = L.Linear(None, param['n_class'], **fc_kwargs)
            self.prob = F.softmax
        _pretrained.load(path, self)
