"""Model exporters (Chainer's ``chainer.exporters``)."""
from chainer_core.exporters import caffe  # NOQA
