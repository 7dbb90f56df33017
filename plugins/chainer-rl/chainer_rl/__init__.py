"""chainer_rl: deep reinforcement learning for chainer-core, with
ChainerRL's API (``import chainer_rl as chainerrl``) and PFRL's batch API,
on gymnasium environments.

The subpackages load when first used, so ``import chainer_rl`` stays light.
"""
import importlib

__version__ = '0.1.0'

_SUBPACKAGES = ('action_value', 'agent', 'agents', 'distribution', 'envs',
                'experiments', 'explorer', 'explorers', 'links', 'misc',
                'policies', 'policy', 'q_function', 'q_functions',
                'recurrent', 'replay_buffer', 'replay_buffers', 'v_function',
                'v_functions', 'wrappers')


def __getattr__(name):
    if name in _SUBPACKAGES:
        module = importlib.import_module('chainer_rl.' + name)
        globals()[name] = module
        return module
    raise AttributeError('module chainer_rl has no attribute {!r}'
                         .format(name))


def __dir__():
    return sorted(list(globals()) + list(_SUBPACKAGES))
