"""Links (Chainer's ``chainer.links``)."""
from chainer_core.links.connection.linear import Linear  # NOQA
from chainer_core.links.model.classifier import Classifier  # NOQA
