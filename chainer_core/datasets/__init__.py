"""Datasets (Chainer's ``chainer.datasets``)."""
from chainer_core.datasets.concatenated_dataset import (  # NOQA
    ConcatenatedDataset)
from chainer_core.datasets.dict_dataset import DictDataset  # NOQA
from chainer_core.datasets.digits import get_digits  # NOQA
from chainer_core.datasets.sub_dataset import (  # NOQA
    SubDataset, get_cross_validation_datasets,
    get_cross_validation_datasets_random, split_dataset, split_dataset_n,
    split_dataset_n_random, split_dataset_random)
from chainer_core.datasets.transform_dataset import TransformDataset  # NOQA
from chainer_core.datasets.tuple_dataset import TupleDataset  # NOQA
