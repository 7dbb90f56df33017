"""State-value functions."""
from chainer_rl.v_functions.v_functions import FCVFunction
from chainer_rl.v_functions.v_functions import SingleModelVFunction

__all__ = ['FCVFunction', 'SingleModelVFunction']
