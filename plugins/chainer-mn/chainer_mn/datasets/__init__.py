"""Splitting datasets over the processes."""
from chainer_mn.datasets.scatter_dataset import (  # NOQA
    create_empty_dataset, scatter_dataset, scatter_index)
