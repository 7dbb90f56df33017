"""Iterators (Chainer's ``chainer.iterators``)."""
from chainer_core.iterators.order_samplers import (  # NOQA
    OrderSampler, ShuffleOrderSampler)
from chainer_core.iterators.serial_iterator import SerialIterator  # NOQA
