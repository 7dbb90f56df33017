"""Datasets (Chainer's ``chainer.datasets``)."""
from chainer_core.datasets.cifar import get_cifar10, get_cifar100  # NOQA
from chainer_core.datasets.concatenated_dataset import (  # NOQA
    ConcatenatedDataset)
from chainer_core.datasets.dict_dataset import DictDataset  # NOQA
from chainer_core.datasets.digits import get_digits  # NOQA
from chainer_core.datasets.fashion_mnist import (  # NOQA
    get_fashion_mnist, get_fashion_mnist_labels)
from chainer_core.datasets.image_dataset import (  # NOQA
    ImageDataset, LabeledImageDataset, LabeledZippedImageDataset,
    MultiZippedImageDataset, ZippedImageDataset)
from chainer_core.datasets.kuzushiji_mnist import (  # NOQA
    get_kuzushiji_mnist, get_kuzushiji_mnist_labels)
from chainer_core.datasets.mnist import get_mnist  # NOQA
from chainer_core.datasets.pickle_dataset import (  # NOQA
    PickleDataset, PickleDatasetWriter, open_pickle_dataset,
    open_pickle_dataset_writer)
from chainer_core.datasets.ptb import (  # NOQA
    get_ptb_words, get_ptb_words_vocabulary)
from chainer_core.datasets.sub_dataset import (  # NOQA
    SubDataset, get_cross_validation_datasets,
    get_cross_validation_datasets_random, split_dataset, split_dataset_n,
    split_dataset_n_random, split_dataset_random)
from chainer_core.datasets.svhn import get_svhn  # NOQA
from chainer_core.datasets.text_dataset import TextDataset  # NOQA
from chainer_core.datasets.transform_dataset import TransformDataset  # NOQA
from chainer_core.datasets.tuple_dataset import TupleDataset  # NOQA
