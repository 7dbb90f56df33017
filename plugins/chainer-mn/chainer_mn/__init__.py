"""chainer_mn: distributed training for chainer-core over MPI, with
ChainerMN's API (``import chainer_mn as chainermn``).

Importing this package does not initialise MPI; creating a communicator
does (through mpi4py). Launch a job with ``mpiexec -n N python train.py``.
"""
from chainer_mn import communicators  # NOQA
from chainer_mn import datasets  # NOQA
from chainer_mn import extensions  # NOQA
from chainer_mn import functions  # NOQA
from chainer_mn import global_except_hook  # NOQA
from chainer_mn import iterators  # NOQA
from chainer_mn import links  # NOQA
from chainer_mn.communicators import CommunicatorBase  # NOQA
from chainer_mn.communicators import create_communicator  # NOQA
from chainer_mn.datasets import scatter_dataset  # NOQA
from chainer_mn.datasets import scatter_index  # NOQA
from chainer_mn.extensions import create_multi_node_checkpointer  # NOQA
from chainer_mn.extensions import create_multi_node_evaluator  # NOQA
from chainer_mn.links import MultiNodeChainList  # NOQA
from chainer_mn.optimizers import create_multi_node_optimizer  # NOQA

__version__ = '0.1.0'
