"""Iterators for multi-process jobs."""
from chainer_mn.iterators.multi_node_iterator import (  # NOQA
    create_multi_node_iterator)
from chainer_mn.iterators.synchronized_iterator import (  # NOQA
    create_synchronized_iterator)
