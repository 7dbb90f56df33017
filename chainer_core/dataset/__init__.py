"""Dataset utilities (Chainer's ``chainer.dataset``)."""
from chainer_core import _lazy

# Imported on first use: download imports urllib.request, and concat_examples
# is all most training loops take from here.
__getattr__, __dir__ = _lazy(__name__, {
    '.convert': (
        'concat_examples', 'ConcatWithAsyncTransfer', 'Converter', 'converter',
        'to_device'),
    '.dataset_mixin': ('DatasetMixin',),
    '.download': (
        'cache_or_load_file', 'cached_download', 'get_dataset_directory',
        'get_dataset_root', 'set_dataset_root'),
    '.iterator': ('Iterator',),
    '.tabular.tabular_dataset': ('TabularDataset',),
}, submodules=True)
