"""Datasets (Chainer's ``chainer.datasets``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.cifar': ('get_cifar10', 'get_cifar100'),
    '.concatenated_dataset': ('ConcatenatedDataset',),
    '.dict_dataset': ('DictDataset',),
    '.digits': ('get_digits',),
    '.fashion_mnist': ('get_fashion_mnist', 'get_fashion_mnist_labels'),
    '.image_dataset': (
        'ImageDataset', 'LabeledImageDataset', 'LabeledZippedImageDataset',
        'MultiZippedImageDataset', 'ZippedImageDataset'),
    '.kuzushiji_mnist': ('get_kuzushiji_mnist', 'get_kuzushiji_mnist_labels'),
    '.mnist': ('get_mnist',),
    '.pickle_dataset': (
        'open_pickle_dataset', 'open_pickle_dataset_writer', 'PickleDataset',
        'PickleDatasetWriter'),
    '.ptb': ('get_ptb_words', 'get_ptb_words_vocabulary'),
    '.sub_dataset': (
        'get_cross_validation_datasets',
        'get_cross_validation_datasets_random', 'split_dataset',
        'split_dataset_n', 'split_dataset_n_random', 'split_dataset_random',
        'SubDataset'),
    '.svhn': ('get_svhn',),
    '.text_dataset': ('TextDataset',),
    '.transform_dataset': ('TransformDataset',),
    '.tuple_dataset': ('TupleDataset',),
}, submodules=True)
