"""Link hooks (Chainer's ``chainer.link_hooks``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.spectral_normalization': ('SpectralNormalization',),
    '.timer': ('TimerHook',),
    '.weight_standardization': ('WeightStandardization',),
}, submodules=True)
