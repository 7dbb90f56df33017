"""Links for multi-process models."""
from chainer_mn.links.batch_normalization import (  # NOQA
    MultiNodeBatchNormalization)
from chainer_mn.links.create_mnbn_model import create_mnbn_model  # NOQA
from chainer_mn.links.multi_node_chain_list import MultiNodeChainList  # NOQA
