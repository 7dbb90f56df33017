"""Trainer extensions for multi-process jobs."""
from chainer_mn.extensions.allreduce_persistent import (  # NOQA
    AllreducePersistent)
from chainer_mn.extensions.checkpoint import (  # NOQA
    create_multi_node_checkpointer)
from chainer_mn.extensions.multi_node_evaluator import (  # NOQA
    create_multi_node_evaluator)
