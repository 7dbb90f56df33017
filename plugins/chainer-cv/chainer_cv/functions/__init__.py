"""Functions of ChainerCV: the position-sensitive region-of-interest
poolings of R-FCN and FCIS."""
from chainer_cv.functions.ps_roi_average_align_2d import ps_roi_average_align_2d  # NOQA
from chainer_cv.functions.ps_roi_average_pooling_2d import ps_roi_average_pooling_2d  # NOQA
from chainer_cv.functions.ps_roi_max_align_2d import ps_roi_max_align_2d  # NOQA
from chainer_cv.functions.ps_roi_max_pooling_2d import ps_roi_max_pooling_2d  # NOQA
