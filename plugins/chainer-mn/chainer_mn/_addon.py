"""The entry point chainer-core discovers (``chainer_core.addons``, ``mn``).

Import-light on purpose: discovery imports this module in every process
that looks up a device, and importing ``mpi4py.MPI`` would initialise MPI.
"""
from backend_api import hookimpl

api_version = (2, 0)

_VERSION = '0.1.0'


@hookimpl
def chainer_core_addon_info():
    return {'name': 'chainer-mn', 'version': _VERSION,
            'summary': 'distributed training over MPI (communicators, '
                       'multi-node optimizer, evaluator, model parallelism)'}


@hookimpl
def chainer_core_configure(config):
    config.add_key(
        'mn_abort_on_exception', True,
        doc='create_communicator installs a hook that aborts the whole MPI '
            'job when one process ends with an unhandled exception or a '
            'non-zero sys.exit, so that the others do not hang')
