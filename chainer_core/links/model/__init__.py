from chainer_core import _lazy

# The link modules are attributes of the package, as in Chainer, imported on
# first access.
__getattr__, __dir__ = _lazy(__name__, submodules=True)
