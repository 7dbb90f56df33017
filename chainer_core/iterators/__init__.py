"""Iterators (Chainer's ``chainer.iterators``)."""
from chainer_core import _lazy

# Imported on first use: MultiprocessIterator imports multiprocessing.
__getattr__, __dir__ = _lazy(__name__, {
    '.dali_iterator': ('DaliIterator',),
    '.multiprocess_iterator': ('MultiprocessIterator',),
    '.multithread_iterator': ('MultithreadIterator',),
    '.order_samplers': ('OrderSampler', 'ShuffleOrderSampler'),
    '.serial_iterator': ('SerialIterator',),
}, submodules=True)
