"""Tabular datasets (Chainer's ``chainer.dataset.tabular``): datasets of
named columns, composed without copying and read in batches."""
from chainer_core.dataset.tabular import delegate_dataset  # NOQA
from chainer_core.dataset.tabular import tabular_dataset  # NOQA
from chainer_core.dataset.tabular.delegate_dataset import (  # NOQA
    DelegateDataset)
from chainer_core.dataset.tabular.from_data import from_data  # NOQA
