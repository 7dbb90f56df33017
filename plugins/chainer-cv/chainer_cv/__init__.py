"""chainer_cv: computer vision for chainer-core, with ChainerCV's API
(``import chainer_cv as chainercv``).

Images are CHW, RGB, float32 in [0, 255]; bounding boxes are
``(y_min, x_min, y_max, x_max)``. The subpackages load when first used, so
``import chainer_cv`` stays light.
"""
import importlib

__version__ = '0.1.0'

_SUBPACKAGES = ('chainer_experimental', 'datasets', 'evaluations',
                'experimental', 'extensions', 'functions', 'links',
                'transforms', 'utils', 'visualizations')


def __getattr__(name):
    if name in _SUBPACKAGES:
        module = importlib.import_module('chainer_cv.' + name)
        globals()[name] = module
        return module
    raise AttributeError('module chainer_cv has no attribute {!r}'
                         .format(name))


def __dir__():
    return sorted(list(globals()) + list(_SUBPACKAGES))
