"""Links of ChainerCV: building blocks, the pickable sequential chain, the
feature predictor, and the models for classification, detection and
semantic segmentation."""
from chainer_cv.links.connection import Conv2DActiv  # NOQA
from chainer_cv.links.connection import Conv2DBNActiv  # NOQA
from chainer_cv.links.connection import SEBlock  # NOQA
from chainer_cv.links.connection import SeparableConv2DBNActiv  # NOQA

from chainer_cv.links.model.feature_predictor import FeaturePredictor  # NOQA
from chainer_cv.links.model.pickable_sequential_chain import PickableSequentialChain  # NOQA
from chainer_cv.links.model.pixelwise_softmax_classifier import PixelwiseSoftmaxClassifier  # NOQA

from chainer_cv.links.model.resnet import ResNet101  # NOQA
from chainer_cv.links.model.resnet import ResNet152  # NOQA
from chainer_cv.links.model.resnet import ResNet50  # NOQA
from chainer_cv.links.model.senet import SEResNet101  # NOQA
from chainer_cv.links.model.senet import SEResNet152  # NOQA
from chainer_cv.links.model.senet import SEResNet50  # NOQA
from chainer_cv.links.model.senet import SEResNeXt101  # NOQA
from chainer_cv.links.model.senet import SEResNeXt50  # NOQA
from chainer_cv.links.model.vgg import VGG16  # NOQA
from chainer_cv.links.model.mobilenet import MobileNetV2  # NOQA

from chainer_cv.links.model.faster_rcnn import FasterRCNNVGG16  # NOQA
from chainer_cv.links.model.fpn import FasterRCNNFPNResNet101  # NOQA
from chainer_cv.links.model.fpn import FasterRCNNFPNResNet50  # NOQA
from chainer_cv.links.model.fpn import MaskRCNNFPNResNet101  # NOQA
from chainer_cv.links.model.fpn import MaskRCNNFPNResNet50  # NOQA
from chainer_cv.links.model.ssd import SSD300  # NOQA
from chainer_cv.links.model.ssd import SSD512  # NOQA
from chainer_cv.links.model.yolo import YOLOv2  # NOQA
from chainer_cv.links.model.yolo import YOLOv2Tiny  # NOQA
from chainer_cv.links.model.yolo import YOLOv3  # NOQA

from chainer_cv.links.model.deeplab import DeepLabV3plusXception65  # NOQA
from chainer_cv.links.model.segnet import SegNetBasic  # NOQA
