"""Experimental data set tools of ChainerCV."""
from chainer_cv.chainer_experimental.datasets import sliceable  # NOQA
