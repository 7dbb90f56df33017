"""Drawing images, boxes, keypoints and segmentations with matplotlib
(ChainerCV's ``chainercv.visualizations``).

matplotlib is optional (``pip install chainer-core-cv[plot]``): this
package imports without it, and its functions raise ImportError when
called without it.
"""
from chainer_cv.visualizations.colormap import voc_colormap  # NOQA
from chainer_cv.visualizations.vis_bbox import vis_bbox  # NOQA
from chainer_cv.visualizations.vis_image import vis_image  # NOQA
from chainer_cv.visualizations.vis_instance_segmentation import (  # NOQA
    vis_instance_segmentation)
from chainer_cv.visualizations.vis_point import vis_point  # NOQA
from chainer_cv.visualizations.vis_semantic_segmentation import (  # NOQA
    vis_semantic_segmentation)
