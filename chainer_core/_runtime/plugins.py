"""Plugin records and the registries a plugin's hooks receive.

Everything here concerns one plugin at a time: where it came from, whether
it targets a ``backend_api`` version this core serves, and the ``registry``
objects its hooks call. The host (``host.py``) runs the hooks.
"""
import os
from importlib import metadata

from backend_api._markers import API_VERSION, ESCAPE_HATCH
from backend_api.errors import APIVersionError, PluginError
from backend_api.protocols import BACKEND_METHODS
from chainer_core._runtime import graphs as _graph, kernels

GROUPS = ('chainer_core.backends', 'chainer_core.addons')
CORE_DISTRIBUTION = 'chainer-core'


class PluginWarning(UserWarning):
    """A plugin was skipped during auto-selection."""


class PluginRecord:
    """What is known about one plugin: where it came from and how it fared."""

    def __init__(self, name, group, distribution, version, value, obj=None):
        self.name = name
        self.group = group
        self.distribution = distribution
        self.version = version
        self.value = value
        self.obj = obj
        self.error = None          # PluginError, chained to the original
        self.backends = []
        self.addon_info = None
        self.loaded = obj is not None
        # Entry-point names are backend names, so two distributions that
        # provide one backend share a name; pluggy needs them apart to let
        # the host report the conflict.
        self.key = '{}:{}:{}'.format(group, distribution, name)

    def fail(self, stage, exc):
        err = PluginError(
            'plugin {!r} from {} failed at {}: {}: {} ({})'.format(
                self.name, self.distribution, stage, type(exc).__name__, exc,
                ESCAPE_HATCH if self.group == GROUPS[0] else
                'set CHAINER_PLUGINS_DISABLE={} to skip this add-on'
                .format(self.name)))
        err.__cause__ = exc
        err.plugin = self
        self.error = err
        return err


class _Registrar:
    """The ``registry`` argument a plugin's hooks receive."""

    def __init__(self, host, record, hook):
        self._host = host
        self._record = record
        self._hook = hook

    def _where(self):
        return 'plugin {!r} ({}) hook {}'.format(
            self._record.name, self._record.distribution, self._hook)

    def register_backend(self, backend):
        missing = [m for m in BACKEND_METHODS
                   if not callable(getattr(backend, m, None))]
        name = getattr(backend, 'name', None)
        if not isinstance(name, str) or not name:
            raise PluginError('{}: backend {!r} has no string attribute '
                              '`name`'.format(self._where(), backend))
        if missing:
            raise PluginError('{}: backend {!r} lacks the methods {}'.format(
                self._where(), name, ', '.join(missing)))
        priority = getattr(backend, 'priority', None)
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise PluginError('{}: backend {!r} has priority {!r}; expected '
                              'an int'.format(self._where(), name, priority))
        self._host._add_backend(backend, self._record)

    def register_kernel(self, op_name, backend_name, fn):
        try:
            kernels.register_kernel(op_name, backend_name, fn,
                                    self._record.distribution)
        except PluginError as e:
            raise PluginError('{}: {}'.format(self._where(), e)) from None

    def register_alias(self, alias, target):
        """See ``backend_api.hookspecs.chainer_core_device_aliases``."""
        indexed = alias is int or (isinstance(alias, str)
                                   and alias.endswith('{}'))
        if not (alias is int or isinstance(alias, str) and alias) or \
                not isinstance(target, str) or \
                indexed != ('{}' in target):
            raise PluginError(
                '{}: register_alias({!r}, {!r}): expected int or a spelling '
                '(ending in {{}} for an index) and a target specifier with '
                '{{}} exactly where the alias takes an index'.format(
                    self._where(), alias, target))
        self._host.add_alias(alias, target, self._record.distribution)

    def register_graph_kernel(self, name, backend_name, fn):
        """See :func:`chainer_core._runtime.graphs.register_graph_kernel`."""
        try:
            _graph.register_graph_kernel(name, backend_name, fn,
                                         self._record.distribution)
        except PluginError as e:
            raise PluginError('{}: {}'.format(self._where(), e)) from None


class _ConfigRegistrar:
    def __init__(self, add_key):
        self._add_key = add_key

    def add_key(self, name, default, doc=''):
        self._add_key(name, default, doc)


def _env_list(name):
    value = os.environ.get(name, '')
    return [v.strip() for v in value.split(',') if v.strip()]


# What a plugin of the previous major version must change, for the refusal.
_CHANGES = {2: 'in 2.0 the registries left backend_api: a kernel declines a '
               'call by returning NotImplemented instead of calling the '
               'reference, and graph kernels are registered by kernel name'}


def _check_api_version(record):
    version = getattr(record.obj, 'api_version', None)
    if (not isinstance(version, tuple) or len(version) != 2
            or not all(isinstance(v, int) for v in version)):
        raise APIVersionError(
            '{} does not declare `api_version = (major, minor)` (got {!r}); '
            'chainer-core provides backend_api {}.{}: the plugin must '
            'declare the version it targets'.format(
                record.value, version, *API_VERSION))
    if version[0] == API_VERSION[0] and version[1] <= API_VERSION[1]:
        return
    if version[0] < API_VERSION[0]:
        fix = ('upgrade the plugin to a release built for backend_api {}.x '
               '({})'.format(API_VERSION[0], _CHANGES.get(API_VERSION[0], '')))
    else:
        fix = ('upgrade chainer-core to a release providing backend_api '
               '{}.{} or later, or install an older release of the plugin'
               .format(*version))
    raise APIVersionError(
        '{} targets backend_api {}.{} but chainer-core provides {}.{}: {}'
        .format(record.value, version[0], version[1],
                API_VERSION[0], API_VERSION[1], fix))


def _version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return 'unknown'
