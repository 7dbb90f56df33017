from chainer_core.functions.pooling.average_pooling_2d import (  # NOQA
    average_pooling_2d)
from chainer_core.functions.pooling.average_pooling_nd import (  # NOQA
    average_pooling_nd)
from chainer_core.functions.pooling.max_pooling_2d import (  # NOQA
    max_pooling_2d)
from chainer_core.functions.pooling.max_pooling_nd import (  # NOQA
    max_pooling_nd)
from chainer_core.functions.pooling.roi_average_align_2d import (  # NOQA
    roi_average_align_2d)
from chainer_core.functions.pooling.roi_max_align_2d import (  # NOQA
    roi_max_align_2d)
from chainer_core.functions.pooling.roi_pooling_2d import (  # NOQA
    roi_pooling_2d)
from chainer_core.functions.pooling.spatial_pyramid_pooling_2d import (  # NOQA
    spatial_pyramid_pooling_2d)
from chainer_core.functions.pooling.unpooling_2d import unpooling_2d  # NOQA
from chainer_core.functions.pooling.unpooling_nd import unpooling_nd  # NOQA
from chainer_core.functions.pooling.upsampling_2d import (  # NOQA
    upsampling_2d)
