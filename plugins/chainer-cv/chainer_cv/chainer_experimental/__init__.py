"""Experimental features of ChainerCV (``chainercv.chainer_experimental``)."""
from chainer_cv.chainer_experimental import datasets  # NOQA
