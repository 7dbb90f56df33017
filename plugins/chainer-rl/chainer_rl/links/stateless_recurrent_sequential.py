"""Where ChainerRL defines StatelessRecurrentSequential."""
from chainer_rl.links.stateless_recurrent import StatelessRecurrentSequential

__all__ = ['StatelessRecurrentSequential']
