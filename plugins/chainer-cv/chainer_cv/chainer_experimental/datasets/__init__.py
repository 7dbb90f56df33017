"""Experimental data set tools (``chainercv.chainer_experimental.datasets``)."""
from chainer_cv.chainer_experimental.datasets import sliceable  # NOQA
