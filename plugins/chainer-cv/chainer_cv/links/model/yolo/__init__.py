"""YOLO detectors with ChainerCV's API and weight layout: YOLOv2, tiny
YOLOv2 and YOLOv3, their Darknet feature extractors and the shared
prediction (:class:`YOLOBase`)."""
from chainer_cv.links.model.yolo.yolo_base import YOLOBase  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import Darknet19Extractor  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import DarknetExtractor  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import DarknetTinyExtractor  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import YOLOv2  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import YOLOv2Base  # NOQA
from chainer_cv.links.model.yolo.yolo_v2 import YOLOv2Tiny  # NOQA
from chainer_cv.links.model.yolo.yolo_v3 import Darknet53Extractor  # NOQA
from chainer_cv.links.model.yolo.yolo_v3 import ResidualBlock  # NOQA
from chainer_cv.links.model.yolo.yolo_v3 import YOLOv3  # NOQA
