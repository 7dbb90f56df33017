"""The entry point chainer-core discovers (``chainer_core.addons``, ``rl``).

Import-light on purpose: discovery imports this module in every process
that looks up a device.
"""
from backend_api import hookimpl

api_version = (2, 0)

_VERSION = '0.1.0'


@hookimpl
def chainer_core_addon_info():
    return {'name': 'chainer-core-rl', 'version': _VERSION,
            'summary': 'deep reinforcement learning with ChainerRL\'s API '
                       '(agents, explorers, replay buffers, experiments) '
                       'on gymnasium'}
