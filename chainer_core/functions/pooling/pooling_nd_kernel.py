"""Chainer's path of the generator of its GPU pooling kernels.

In chainer-core the array work of every pooling op is a named kernel of
the registry (``max_pooling_nd``, ``average_pooling_nd`` and their
``*_grad``), which a backend replaces for its own arrays; see
``python -m chainer_core kernels``. The module exists so that code
importing Chainer's path runs.
"""
