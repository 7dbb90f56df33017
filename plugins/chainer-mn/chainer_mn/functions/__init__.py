"""Functions that communicate, with backprop across processes."""
from chainer_mn.functions.collective_communication import (  # NOQA
    allgather, allreduce, alltoall, bcast, gather, scatter)
from chainer_mn.functions.point_to_point_communication import (  # NOQA
    recv, send)
from chainer_mn.functions.pseudo_connect import pseudo_connect  # NOQA
