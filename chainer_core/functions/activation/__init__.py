from chainer_core.functions.activation.log_softmax import log_softmax  # NOQA
from chainer_core.functions.activation.relu import relu  # NOQA
from chainer_core.functions.activation.sigmoid import sigmoid  # NOQA
from chainer_core.functions.activation.softmax import softmax  # NOQA
from chainer_core.functions.activation.tanh import tanh  # NOQA
