from chainer_cv.links.model.deeplab.aspp import SeparableASPP  # NOQA
from chainer_cv.links.model.deeplab.deeplab_v3_plus import Decoder  # NOQA
from chainer_cv.links.model.deeplab.deeplab_v3_plus import DeepLabV3plus  # NOQA
from chainer_cv.links.model.deeplab.deeplab_v3_plus import DeepLabV3plusXception65  # NOQA
from chainer_cv.links.model.deeplab.xception import Xception65  # NOQA
from chainer_cv.links.model.deeplab.xception import XceptionBlock  # NOQA
