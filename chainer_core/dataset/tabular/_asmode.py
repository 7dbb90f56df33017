"""The same tabular data with examples of another form."""
from chainer_core.dataset.tabular.delegate_dataset import DelegateDataset


class AsMode(DelegateDataset):
    """``dataset`` with examples as ``mode`` (``tuple`` or ``dict``) and
    its converter."""

    def __init__(self, dataset, mode):
        super().__init__(dataset)
        self._mode = mode

    @property
    def mode(self):
        return self._mode

    def convert(self, data):
        return self.dataset.convert(data)
