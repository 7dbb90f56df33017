"""DelegateDataset: a tabular dataset that reads through another one."""
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset


class DelegateDataset(TabularDataset):
    """Passes ``len``, ``keys``, ``mode`` and ``get_examples`` on to
    ``dataset``; a base for datasets built out of other ones.

    Its :meth:`convert` is the default one, not ``dataset``'s.

    Args:
        dataset (TabularDataset): the dataset read, kept as
            ``self.dataset``.

    Example:
        >>> from chainer_core.dataset import tabular
        >>> class Squares(tabular.DelegateDataset):
        ...     def __init__(self, n):
        ...         super().__init__(tabular.from_data(
        ...             ('sq', lambda i: i * i), size=n))
        >>> Squares(4).fetch()
        [0, 1, 4, 9]
    """

    def __init__(self, dataset):
        if not isinstance(dataset, TabularDataset):
            raise TypeError('DelegateDataset: dataset must be a '
                            'TabularDataset, got {}'.format(
                                type(dataset).__name__))
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)
