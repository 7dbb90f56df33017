"""Dataset utilities (Chainer's ``chainer.dataset``)."""
from chainer_core.dataset.convert import (  # NOQA
    ConcatWithAsyncTransfer, Converter, concat_examples, converter,
    to_device)
from chainer_core.dataset.dataset_mixin import DatasetMixin  # NOQA
from chainer_core.dataset import tabular  # NOQA
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset  # NOQA
from chainer_core.dataset.iterator import Iterator  # NOQA
from chainer_core.dataset.download import (  # NOQA
    cache_or_load_file, cached_download, get_dataset_directory,
    get_dataset_root, set_dataset_root)
