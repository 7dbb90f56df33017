"""Plugin discovery and device selection (DESIGN.md section 3).

Discovery is lazy and happens once per process: importing chainer_core
imports no plugin. The built-in NumPy backend registers through the same hooks
as every plugin. Each plugin is loaded, validated and asked for its hooks
inside its own ``try``, so one broken plugin never hides the others.
"""
import contextlib
import numbers
import os
import threading
import types
import warnings
from importlib import metadata

import pluggy

from backend_api import hookspecs
import backend_api.device as _device_contract
from backend_api.device import current_device
from backend_api._markers import ESCAPE_HATCH, PROJECT_NAME
from backend_api.errors import (
    BackendConflictError, DeviceSpecError,
    DeviceUnavailableError, PluginError)
from chainer_core._runtime import graphs as _graph, kernels
from chainer_core._runtime.plugins import (  # NOQA
    CORE_DISTRIBUTION, GROUPS, PluginRecord, PluginWarning, _ConfigRegistrar,
    _Registrar, _check_api_version, _env_list, _version)

class Host:
    def __init__(self):
        self._lock = threading.RLock()
        # Chainer's spellings (set by the core's compatibility module).
        self.providers = {}
        self.integer_target = '{}'
        self.reset()

    def reset(self):
        """Forget everything (for tests that change the environment)."""
        self.records = []
        self.backends = {}          # name -> (backend, record)
        self.conflicts = {}         # name -> BackendConflictError
        self._builtins = []         # (name, obj)
        self._builtins_loaded = False
        self._loaded_groups = set()
        self.aliases = {}           # spelling -> (target, distribution)
        self._default = None
        self._type_backend = {}
        self._config_add_key = None
        self.pm = pluggy.PluginManager(PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        # Kernels of forgotten plugins must go too: a plugin discovered again
        # from another distribution would otherwise conflict with itself.
        kernels.unregister_all()
        _graph.remove_all()

    # -- registration -------------------------------------------------

    def set_config_registrar(self, add_key):
        """How plugins' ``chainer_core_configure`` hooks add keys."""
        self._config_add_key = add_key

    def add_builtin(self, name, obj, config_add_key=None):
        self._builtins = [(n, o) for n, o in self._builtins if n != name]
        self._builtins.append((name, obj))
        if config_add_key is not None:
            self._config_add_key = config_add_key

    def _add_backend(self, backend, record):
        name = backend.name
        if name in self.conflicts:
            self.conflicts[name].distributions.append(record.distribution)
            return
        if name in self.backends and \
                self.backends[name][1].distribution == CORE_DISTRIBUTION:
            # The core's own backend stays: only the newcomer is refused.
            raise BackendConflictError(
                'backend {!r} is built into chainer-core; {} cannot register '
                'it again (uninstall it, or set CHAINER_PLUGINS_DISABLE={})'
                .format(name, record.distribution, record.distribution))
        if name in self.backends:
            other = self.backends.pop(name)[1]
            err = BackendConflictError(
                'backend {!r} is registered by two distributions: {} and {}; '
                'uninstall one, or name one in CHAINER_PLUGINS_DISABLE '
                '(CHAINER_PLUGINS_DISABLE={})'.format(
                    name, other.distribution, record.distribution,
                    record.distribution))
            err.distributions = [other.distribution, record.distribution]
            self.conflicts[name] = err
            kernels.unregister_backend(name)
            _graph.remove_backend(name)
            raise err
        self.backends[name] = (backend, record)
        record.backends.append(name)

    def _register_plugin(self, record):
        try:
            _check_api_version(record)
            self.pm.register(record.obj, name=record.key)
            try:
                self.pm.check_pending()
            except pluggy.PluginValidationError as e:
                self.pm.unregister(name=record.key)
                raise pluggy.PluginValidationError(
                    e.plugin, '{}; the hooks are {}'.format(
                        e, ', '.join(sorted(
                            n for n in dir(hookspecs)
                            if n.startswith(PROJECT_NAME + '_'))))) from None
        except Exception as e:
            return record.fail('validation', e)
        return None

    def _call_hook(self, record, hook, **kwargs):
        impls = [i for i in getattr(self.pm.hook, hook).get_hookimpls()
                 if i.plugin_name == record.key]
        results = []
        for impl in impls:
            results.append(impl.function(**kwargs))
        return results

    def _run_hooks(self, records):
        """Backends first (all plugins), then kernels, config and info."""
        for record in records:
            if record.error is not None:
                continue
            try:
                self._call_hook(record, 'chainer_core_register_backends',
                                registry=_Registrar(
                                    self, record,
                                    'chainer_core_register_backends'))
            except Exception as e:
                self._drop(record, 'chainer_core_register_backends', e)
        for record in records:
            if record.error is not None:
                continue
            try:
                self._call_hook(record, 'chainer_core_register_kernels',
                                registry=_Registrar(
                                    self, record,
                                    'chainer_core_register_kernels'))
                self._call_hook(record, 'chainer_core_device_aliases',
                                registry=_Registrar(
                                    self, record,
                                    'chainer_core_device_aliases'))
                if self._config_add_key is not None:
                    self._call_hook(record, 'chainer_core_configure',
                                    config=_ConfigRegistrar(
                                        self._config_add_key))
                infos = self._call_hook(record, 'chainer_core_addon_info')
                for info in infos:
                    if not isinstance(info, dict) or not {
                            'name', 'version', 'summary'} <= set(info):
                        raise PluginError(
                            'chainer_core_addon_info returned {!r}; expected '
                            'a dict with name, version and summary'
                            .format(info))
                    record.addon_info = info
            except Exception as e:
                self._drop(record, 'registration', e)

    def _drop(self, record, stage, exc):
        for name in record.backends:
            if self.backends.get(name, (None, None))[1] is record:
                del self.backends[name]
                kernels.unregister_backend(name)
                _graph.remove_backend(name)
        record.backends = []
        self.aliases = {a: t for a, t in self.aliases.items()
                        if t[1] != record.distribution}
        try:
            self.pm.unregister(name=record.key)
        except Exception:
            pass
        self._warn(record.fail(stage, exc))

    def _warn(self, err):
        warnings.warn(str(err), PluginWarning, stacklevel=4)

    # -- discovery ----------------------------------------------------

    def _ensure_builtins(self):
        if self._builtins_loaded:
            return
        with self._lock:
            if self._builtins_loaded:
                return
            if not self._builtins:
                self._builtins = _core_entry_points()
            records = []
            for name, obj in self._builtins:
                record = PluginRecord(name, GROUPS[0], CORE_DISTRIBUTION,
                                      _version(CORE_DISTRIBUTION),
                                      getattr(obj, '__name__', repr(obj)),
                                      obj)
                self.records.append(record)
                err = self._register_plugin(record)
                if err is not None:
                    raise err
                records.append(record)
            self._run_hooks(records)
            self._builtins_loaded = True

    def entry_points(self):
        """Entry points of both groups, with the overrides applied.

        Returns ``(selected, skipped)`` where skipped maps an entry point to
        the reason it is not loaded.
        """
        disabled = set(_env_list('CHAINER_PLUGINS_DISABLE'))
        allowed = _env_list('CHAINER_BACKENDS')
        autoload = os.environ.get('CHAINER_PLUGINS_AUTOLOAD', '1') != '0'
        selected, skipped = [], []
        seen = set()
        for group in GROUPS:
            for ep in metadata.entry_points(group=group):
                dist = ep.dist.name if ep.dist is not None else '<unknown>'
                key = (group, ep.name, ep.value)
                if key in seen or dist == CORE_DISTRIBUTION:
                    continue
                seen.add(key)
                if ep.name in disabled or dist in disabled:
                    skipped.append((ep, 'disabled by CHAINER_PLUGINS_DISABLE'))
                elif (group == GROUPS[0] and allowed
                      and ep.name not in allowed):
                    skipped.append((ep, 'not in CHAINER_BACKENDS'))
                elif not autoload and not (group == GROUPS[0]
                                           and ep.name in allowed):
                    skipped.append((ep, 'CHAINER_PLUGINS_AUTOLOAD=0'))
                else:
                    selected.append((group, ep))
        return selected, skipped

    @property
    def fully_loaded(self):
        return self._loaded_groups.issuperset(GROUPS)

    def ensure_backends(self):
        """Import and register the selected backend plugins (once): what a
        device lookup needs. Add-ons wait until they are used."""
        if GROUPS[0] not in self._loaded_groups:
            self._load_groups((GROUPS[0],))

    def ensure_loaded(self):
        """Import and register every selected plugin, add-ons included
        (once): for ``info``, and for a configuration key an add-on adds."""
        if not self.fully_loaded:
            self._load_groups(GROUPS)

    def _load_groups(self, groups):
        self._ensure_builtins()
        with self._lock:
            groups = [g for g in groups if g not in self._loaded_groups]
            if not groups:
                return
            known = {(r.group, r.name, r.distribution) for r in self.records}
            selected, _ = self.entry_points()
            records = []
            for group, ep in selected:
                if group not in groups:
                    continue
                dist = ep.dist.name if ep.dist is not None else '<unknown>'
                if (group, ep.name, dist) in known:
                    continue
                record = PluginRecord(ep.name, group, dist, _version(dist),
                                      ep.value)
                self.records.append(record)
                try:
                    record.obj = ep.load()
                    record.loaded = True
                except Exception as e:
                    self._warn(record.fail('import', e))
                    continue
                err = self._register_plugin(record)
                if err is not None:
                    self._warn(err)
                    continue
                records.append(record)
            self._run_hooks(records)
            self._loaded_groups.update(groups)

    def failed_record_for(self, name):
        for record in self.records:
            if record.error is not None and (
                    record.name == name or name in record.backends):
                return record
        return None

    # -- devices ------------------------------------------------------

    def ordered_backends(self):
        """Backends in auto-selection order (CHAINER_BACKENDS, or priority)."""
        self.ensure_backends()
        allowed = _env_list('CHAINER_BACKENDS')
        if allowed:
            out = []
            for name in allowed:
                if name in self.backends:
                    out.append(self.backends[name][0])
                    continue
                self._raise_for_missing_backend(name, 'CHAINER_BACKENDS')
            return out
        items = sorted((b for b, _ in self.backends.values()),
                       key=lambda b: (-b.priority, b.name))
        for a, b in zip(items, items[1:]):
            if a.priority == b.priority:
                warnings.warn(
                    'backends {!r} and {!r} share priority {}; {!r} is '
                    'preferred by name. Set CHAINER_BACKENDS to choose.'
                    .format(a.name, b.name, a.priority, a.name),
                    PluginWarning, stacklevel=3)
        return items

    def _raise_for_missing_backend(self, name, source):
        if name in self.conflicts:
            raise self.conflicts[name]
        failed = self.failed_record_for(name)
        if failed is not None:
            raise PluginError('{} asks for backend {!r}, whose plugin failed '
                              'to load: {}'.format(source, name, failed.error)
                              ) from failed.error.__cause__
        raise DeviceSpecError(
            '{} names backend {!r}, which no installed plugin provides '
            '(installed backends: {}){}'.format(
                source, name, ', '.join(sorted(self.backends)) or 'none',
                self._skipped_note(name)))

    def _skipped_note(self, name):
        """Why the entry point named ``name`` was not loaded, if it was not.

        An override that hides a plugin the user then asks for by name is
        the likely mistake, so the error says which override did it.
        """
        for ep, reason in self.entry_points()[1]:
            if ep.group == GROUPS[0] and ep.name == name:
                return '; the entry point {!r} of {} is skipped: {}'.format(
                    name, ep.dist.name if ep.dist is not None
                    else '<unknown>', reason)
        return ''

    def add_compat_spellings(self, providers, integer_target):
        """Chainer's spellings, from the core's compatibility module:
        ``providers`` maps a specifier prefix to the distribution serving
        it (for errors), ``integer_target`` is what ``N >= 0`` means when no
        plugin claims integers (``'@cupy:{}'``)."""
        self.providers = dict(providers)
        self.integer_target = integer_target

    def add_alias(self, alias, target, distribution):
        """``alias``: ``int`` (the integers N >= 0), a spelling, or a
        spelling ending in ``{}`` for an index; ``target`` a specifier, with
        ``{}`` where the alias has one."""
        previous = self.aliases.get(alias)
        if previous is not None and previous[1] != distribution:
            raise PluginError(
                'device alias {!r} is claimed by both {} and {}'.format(
                    'integers' if alias is int else alias, previous[1],
                    distribution))
        self.aliases[alias] = (target, distribution)

    def resolve_alias(self, spec):
        """The specifier a plugin's alias maps ``spec`` to, or None."""
        hit = self.aliases.get(spec)
        if hit is not None:
            return hit[0]
        for alias, (target, _) in self.aliases.items():
            if isinstance(alias, str) and alias.endswith('{}'):
                rest = spec[len(alias) - 2:]
                if spec.startswith(alias[:-2]) and rest.isdigit():
                    return target.format(int(rest))
        return None

    def parse_spec(self, spec, source='get_device'):
        self._ensure_builtins()
        device = self._parse_with_loaded(spec, source)
        if device is None:
            self.ensure_backends()
            device = self._parse_with_loaded(spec, source)
        if device is None:
            target = self.resolve_alias(spec)
            if target is not None and target != spec:
                return self.parse_spec(target, source)
        if device is None:
            prefix = spec.lstrip('@').split(':')[0]
            if prefix in self.conflicts:
                raise self.conflicts[prefix]
            failed = self.failed_record_for(prefix)
            if failed is not None:
                raise PluginError(
                    '{}({!r}): the plugin for this device failed to load: {}'
                    .format(source, spec, failed.error)
                ) from failed.error.__cause__
            provider = self.providers.get(prefix)
            if provider is not None:
                raise DeviceUnavailableError(
                    '{}({!r}): no installed backend provides this device; '
                    'it is served by the {} plugin (pip install {}){}'.format(
                        source, spec, provider, provider,
                        self._skipped_note(prefix)))
            errors = [r.error for r in self.records if r.error is not None]
            raise DeviceSpecError(
                '{}: unknown device specifier {!r}. Known backends: {}{}{}. '
                'A specifier is \'@numpy\', \'<backend>:<index>\' or an '
                'integer (-1 is the CPU).'.format(
                    source, spec, ', '.join(sorted(self.backends)),
                    self._skipped_note(prefix),
                    ''.join('; ' + str(e) for e in errors)))
        return self._check_available(device, spec, source)

    def _parse_with_loaded(self, spec, source):
        for backend, record in list(self.backends.values()):
            try:
                device = backend.parse_device_spec(spec)
            except Exception as e:
                raise PluginError(
                    '{}({!r}): backend {!r} from {} raised while parsing the '
                    'specifier: {}: {} ({})'.format(
                        source, spec, backend.name, record.distribution,
                        type(e).__name__, e, ESCAPE_HATCH)) from e
            if device is not None:
                return device
        return None

    def _check_available(self, device, spec, source):
        backend = device.backend
        try:
            available = backend.is_available()
        except Exception as e:
            raise PluginError('{}({!r}): backend {!r} raised in is_available: '
                              '{} ({})'.format(source, spec, backend.name, e,
                                               ESCAPE_HATCH)) from e
        if not available:
            raise DeviceSpecError('{}({!r}): backend {!r} is not available '
                                  'here: {} ({})'.format(
                                      source, spec, backend.name,
                                      unavailable_reason(backend),
                                      ESCAPE_HATCH))
        return device

    def auto_device(self):
        if self._default is not None:
            return self._default
        with self._lock:
            explicit = bool(_env_list('CHAINER_BACKENDS'))
            for backend in self.ordered_backends():
                try:
                    if backend.is_available() and backend.device_count() > 0:
                        self._default = backend.get_device(0)
                        return self._default
                except Exception as e:
                    record = self.backends[backend.name][1]
                    err = record.fail('initialisation', e)
                    if explicit:
                        raise err from e
                    self._drop_backend(backend.name)
                    self._warn(err)
            raise DeviceSpecError('no available backend (set CHAINER_DEVICE '
                                  'or CHAINER_BACKENDS)')

    def _drop_backend(self, name):
        self.backends.pop(name, None)
        kernels.unregister_backend(name)
        _graph.remove_backend(name)
        self._type_backend.clear()

    def backend_for_array(self, array):
        t = type(array)
        backend = self._type_backend.get(t)
        if backend is not None:
            return backend
        device = self.device_from_array(array)
        return device.backend

    def device_from_array(self, array):
        t = type(array)
        backend = self._type_backend.get(t)
        if backend is not None:
            device = backend.device_from_array(array)
            if device is not None:
                return device
        self._ensure_builtins()
        for attempt in (0, 1):
            for backend in sorted((b for b, _ in self.backends.values()),
                                  key=lambda b: (-b.priority, b.name)):
                device = backend.device_from_array(array)
                if device is not None:
                    self._type_backend[t] = backend
                    return device
            if attempt == 0 and GROUPS[0] not in self._loaded_groups:
                self.ensure_backends()
            else:
                break
        raise TypeError('no installed backend handles arrays of type {}.{} '
                        '(installed backends: {})'.format(
                            t.__module__, t.__qualname__,
                            ', '.join(sorted(self.backends))))


def _core_entry_points():
    """chainer-core's own backends (the NumPy backend), which register
    through the same entry point group and hooks as every plugin, and which
    no override disables."""
    found = [(ep.name, ep.load()) for ep in metadata.entry_points(
        group=GROUPS[0])
        if ep.dist is not None and ep.dist.name == CORE_DISTRIBUTION]
    if not found:
        raise PluginError(
            'chainer-core is not installed: its NumPy backend is registered '
            'through the entry point group {!r} of the chainer-core '
            'distribution. Install it (pip install -e . in a checkout) '
            'instead of putting the source folder on sys.path'.format(
                GROUPS[0]))
    return found


def unavailable_reason(backend):
    fn = getattr(backend, 'unavailable_reason', None)
    if callable(fn):
        try:
            return fn() or 'no reason given'
        except Exception as e:
            return 'unavailable_reason() raised {}: {}'.format(
                type(e).__name__, e)
    return 'is_available() returned False'


host = Host()

def _integer_spec(spec):
    """The integer a Chainer-style device string (``'-1'``, ``'0'``) names,
    or None."""
    try:
        return int(spec.strip())
    except ValueError:
        return None



def get_device(device_spec=None):
    """Resolve a device specifier (see chainer_core.get_device)."""
    if device_spec is None:
        current = current_device.get()
        if current is not None:
            return current
        env = os.environ.get('CHAINER_DEVICE')
        if env:
            return host.parse_spec(env, 'CHAINER_DEVICE')
        return host.auto_device()
    if isinstance(device_spec, str):
        index = _integer_spec(device_spec)
        if index is None:
            return host.parse_spec(device_spec)
        device_spec = index
    if isinstance(device_spec, bool):
        raise TypeError('get_device: expected a device specifier, got a bool')
    if isinstance(device_spec, numbers.Integral):
        if device_spec < 0:
            return host.parse_spec('@numpy')
        host.ensure_backends()
        claimed = host.aliases.get(int)
        target = (claimed[0] if claimed else host.integer_target).format(
            int(device_spec))
        try:
            return host.parse_spec(target)
        except DeviceUnavailableError as e:
            provider = host.providers.get(target.lstrip('@').split(':')[0])
            raise DeviceUnavailableError(
                'get_device({!r}): a non-negative integer means {!r} (GPU {} '
                'in Chainer), and no installed backend provides it; install '
                '{}, or use -1 or \'@numpy\' for the CPU'.format(
                    device_spec, target, int(device_spec),
                    provider or 'the plugin serving it')) from e
    if hasattr(device_spec, 'backend') and hasattr(device_spec, 'xp') and \
            hasattr(device_spec, 'send'):
        return device_spec
    raise DeviceSpecError(
        'get_device: cannot interpret {!r} (type {}) as a device; expected a '
        'string such as \'@numpy\', an int, or a device object'.format(
            device_spec, type(device_spec).__name__))


@contextlib.contextmanager
def using_device(device_spec):
    """Make ``device_spec`` the default device inside the ``with`` block."""
    device = get_device(device_spec)
    token = current_device.set(device)
    try:
        device.use()
        yield device
    finally:
        current_device.reset(token)


def device_from_array(array):
    return host.device_from_array(array)


# The contract's DeviceBase finds devices through this table (it may not
# import the core).
_device_contract._table = types.SimpleNamespace(
    get_device=get_device, device_from_array=device_from_array)
