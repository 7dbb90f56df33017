"""Where ChainerRL defines StatelessRecurrentBranched."""
from chainer_rl.links.stateless_recurrent import StatelessRecurrentBranched

__all__ = ['StatelessRecurrentBranched']
