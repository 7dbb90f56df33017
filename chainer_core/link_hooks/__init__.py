"""Link hooks (Chainer's ``chainer.link_hooks``)."""
from chainer_core.link_hooks.spectral_normalization import (  # NOQA
    SpectralNormalization)
from chainer_core.link_hooks.timer import TimerHook  # NOQA
from chainer_core.link_hooks.weight_standardization import (  # NOQA
    WeightStandardization)
