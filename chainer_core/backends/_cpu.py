"""The CPU device (Chainer's ``chainer.backends._cpu``, which Chainer code
imports ``CpuDevice`` from)."""
from chainer_core._numpy_backend import CpuDevice  # NOQA
