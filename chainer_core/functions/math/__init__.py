"""Mathematical functions.

As in Chainer, the package holds one module per op (or family of
ops); ``chainer_core.functions`` exports their functions.
"""

from chainer_core import _lazy

# The op modules are attributes of the package, as in Chainer, imported on
# first access.
__getattr__, __dir__ = _lazy(__name__, submodules=True)
