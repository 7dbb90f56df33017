"""Iterators (Chainer's ``chainer.iterators``)."""
from chainer_core.iterators import dali_iterator  # NOQA
from chainer_core.iterators.dali_iterator import DaliIterator  # NOQA
from chainer_core.iterators.multiprocess_iterator import (  # NOQA
    MultiprocessIterator)
from chainer_core.iterators.multithread_iterator import (  # NOQA
    MultithreadIterator)
from chainer_core.iterators.order_samplers import (  # NOQA
    OrderSampler, ShuffleOrderSampler)
from chainer_core.iterators.serial_iterator import SerialIterator  # NOQA
