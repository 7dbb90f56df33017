"""The entry point chainer-core discovers (``chainer_core.addons``, ``cv``).

Import-light on purpose: discovery imports this module in every process
that looks up a device.
"""
from backend_api import hookimpl

api_version = (2, 0)

_VERSION = '0.1.0'


@hookimpl
def chainer_core_addon_info():
    return {'name': 'chainer-core-cv', 'version': _VERSION,
            'summary': 'computer vision with ChainerCV\'s API (models, '
                       'transforms, evaluations, data sets, '
                       'visualizations)'}
