"""TransformDataset: examples passed through a function on access."""
from chainer_core.dataset.dataset_mixin import DatasetMixin


class TransformDataset(DatasetMixin):
    """``dataset[i] == transform(base[i])``, computed lazily."""

    def __init__(self, dataset, transform):
        if not callable(transform):
            raise TypeError('TransformDataset: transform must be callable')
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
