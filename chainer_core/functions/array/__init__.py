from chainer_core.functions.array.broadcast import broadcast_to  # NOQA
from chainer_core.functions.array.get_item import get_item  # NOQA
from chainer_core.functions.array.reshape import reshape  # NOQA
from chainer_core.functions.array.transpose import transpose  # NOQA
