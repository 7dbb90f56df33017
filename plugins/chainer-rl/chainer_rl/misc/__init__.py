"""Small utilities shared by agents, explorers and experiments."""
from chainer_rl.misc import async_  # NOQA
from chainer_rl.misc import collections  # NOQA
from chainer_rl.misc import env_modifiers  # NOQA
from chainer_rl.misc import random  # NOQA
from chainer_rl.misc.batch_states import batch_states  # NOQA
from chainer_rl.misc.batch_states import device_of_xp  # NOQA
from chainer_rl.misc.conjugate_gradient import conjugate_gradient  # NOQA
from chainer_rl.misc.copy_param import copy_param  # NOQA
from chainer_rl.misc.copy_param import soft_copy_param  # NOQA
from chainer_rl.misc.draw_computational_graph import (  # NOQA
    draw_computational_graph, is_graphviz_available)
from chainer_rl.misc.is_return_code_zero import is_return_code_zero  # NOQA
from chainer_rl.misc.random_seed import set_random_seed  # NOQA

__all__ = ['async_', 'collections', 'env_modifiers', 'random', 'batch_states',
           'device_of_xp', 'conjugate_gradient', 'copy_param',
           'soft_copy_param', 'draw_computational_graph',
           'is_graphviz_available', 'is_return_code_zero', 'set_random_seed']
