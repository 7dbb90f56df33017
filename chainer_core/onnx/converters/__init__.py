"""The converters from chainer-core's functions to ONNX nodes.

:data:`registry` maps the class name of each FunctionNode that ONNX can
express (``'ReLU'``, ``'Convolution2DFunction'``, ...) to its converter;
``export(..., external_converters={name: converter})`` adds or replaces
converters for one export, and :func:`register` adds them for all.
:class:`GraphBuilder` is what converters build their nodes with.
"""
from chainer_core.onnx.converters._builder import GraphBuilder  # NOQA
from chainer_core.onnx.converters._builder import register  # NOQA
from chainer_core.onnx.converters._builder import registry  # NOQA
from chainer_core.onnx.converters._builder import unsupported  # NOQA

# Each module registers its converters when imported.
from chainer_core.onnx.converters import activation  # NOQA
from chainer_core.onnx.converters import array  # NOQA
from chainer_core.onnx.converters import connection  # NOQA
from chainer_core.onnx.converters import loss  # NOQA
from chainer_core.onnx.converters import math  # NOQA
from chainer_core.onnx.converters import noise  # NOQA
from chainer_core.onnx.converters import normalization  # NOQA
from chainer_core.onnx.converters import pooling  # NOQA
