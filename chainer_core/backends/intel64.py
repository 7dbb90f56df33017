"""oneDNN utilities (Chainer's ``chainer.backends.intel64``).

Chainer used iDeep for MKL-DNN; here the oneDNN kernels come from the
backend plugin named ``'mkldnn'`` (chainer-mkldnn), and "iDeep is
available" means that this backend is installed and available, as found
by plugin discovery.
"""
from chainer_core._runtime.host import host
from chainer_core.backend import Intel64Device  # NOQA
from chainer_core.configuration import config

_BACKEND = 'mkldnn'


def is_ideep_available():
    """Whether the oneDNN backend (``'mkldnn'``) is installed and
    available here."""
    host.ensure_loaded()
    entry = host.backends.get(_BACKEND)
    if entry is None:
        return False
    try:
        return bool(entry[0].is_available())
    except Exception:
        # A plugin failing here counts as unavailable; get_device('@intel64')
        # reports the error itself.
        return False


def check_ideep_available():
    """Raise :class:`RuntimeError` unless :func:`is_ideep_available`."""
    if not is_ideep_available():
        raise RuntimeError(
            'the oneDNN backend ({!r}) is not available here: install '
            'chainer-mkldnn (python -m chainer_core info tells why an '
            'installed one is unavailable)'.format(_BACKEND))


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Whether oneDNN can take ``inputs``: the backend is available and
    every input is an array (or None) of a supported number of
    dimensions."""
    if not is_ideep_available():
        return False
    return all(x is None or getattr(x, 'ndim', None) in supported_ndim
               for x in inputs)


class _NoMdarray:
    """Stands for the oneDNN array type without the backend: no object is
    one."""


def __getattr__(name):
    # The array type exists once the plugin is loaded; resolving it loads
    # plugins, so it waits for first use.
    if name == 'mdarray':
        if not is_ideep_available():
            return _NoMdarray
        from chainer_core.backend import get_device
        import numpy
        return type(get_device('@intel64').send(numpy.zeros(0)))
    raise AttributeError('module {!r} has no attribute {!r}'.format(
        __name__, name))


def should_use_ideep(level):
    """Whether oneDNN should be used at ``level`` ('==always' or '>=auto')
    given ``config.use_ideep``."""
    if level not in ('==always', '>=auto'):
        raise ValueError("level must be '==always' or '>=auto', got {!r}"
                         .format(level))
    allowed = ('always',) if level == '==always' else ('always', 'auto')
    if config.use_ideep not in allowed:
        return False
    return is_ideep_available()
