"""ChainerCV's experimental part: links whose API may still change."""
from chainer_cv.experimental import links  # NOQA
