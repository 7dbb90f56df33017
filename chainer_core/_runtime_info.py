"""What this installation offers: backends, add-ons, devices and errors.

Gathering the report must survive any broken plugin, because the report is
where a user goes to find out which plugin is broken: every failure ends up
in the report instead of propagating.
"""
import os
import platform
import sys
import warnings
from importlib import metadata

import numpy

from chainer_core._runtime import host as _host
from backend_api._markers import API_VERSION

OVERRIDES = ('CHAINER_DEVICE', 'CHAINER_BACKENDS', 'CHAINER_PLUGINS_DISABLE',
             'CHAINER_PLUGINS_AUTOLOAD')


def _error_text(exc):
    return '{}: {}'.format(type(exc).__name__, exc)


def _dist_version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _backend_info(backend, record):
    info = {
        'name': backend.name,
        'distribution': record.distribution,
        'version': record.version,
        'priority': backend.priority,
        'available': False,
        'reason': None,
        'devices': [],
        'error': None,
    }
    try:
        info['available'] = bool(backend.is_available())
    except Exception as e:
        info['reason'] = 'is_available() raised {}'.format(_error_text(e))
        info['error'] = info['reason']
        return info
    if not info['available']:
        info['reason'] = _host.unavailable_reason(backend)
        return info
    try:
        info['devices'] = [backend.get_device(i).name
                           for i in range(backend.device_count())]
    except Exception as e:
        info['error'] = 'listing devices raised {}'.format(_error_text(e))
    return info


def _failed_backend_info(record):
    text = str(record.error)
    return {
        'name': record.name,
        'distribution': record.distribution,
        'version': record.version,
        'priority': None,
        'available': False,
        'reason': text,
        'devices': [],
        'error': text,
    }


def _addon_info(record):
    info = record.addon_info or {}
    return {
        'name': record.name,
        'distribution': record.distribution,
        'version': record.version,
        'title': info.get('name'),
        'summary': info.get('summary'),
        'error': None if record.error is None else str(record.error),
    }


def _error_info(record):
    cause = record.error.__cause__
    return {
        'plugin': record.name,
        'group': record.group,
        'distribution': record.distribution,
        'version': record.version,
        'entry_point': record.value,
        'message': str(record.error),
        'cause': None if cause is None else type(cause).__name__,
    }


def runtime_info():
    """The data :func:`print_runtime_info` prints, as JSON-ready dicts.

    Keys: ``versions``, ``overrides`` (the environment variables that are
    set), ``default_device`` and ``default_device_error``, ``backends``,
    ``addons``, ``errors`` (one per failed plugin), ``skipped`` (entry points
    left out by the overrides), ``warnings`` (those not already among
    ``errors``) and ``discovery_error``.
    """
    import chainer_core

    host = _host.host
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        discovery_error = None
        try:
            host.ensure_loaded()
        except Exception as e:
            discovery_error = _error_text(e)
        try:
            skipped_eps = host.entry_points()[1]
        except Exception as e:
            skipped_eps = []
            discovery_error = discovery_error or _error_text(e)
        # Availability is asked before the default device is chosen because
        # choosing it drops a backend whose is_available() raises.
        backends = [_backend_info(b, r) for b, r in sorted(
            host.backends.values(),
            key=lambda item: (-item[0].priority, item[0].name))]
        default, default_error = None, None
        try:
            default = _host.get_device().name
        except Exception as e:
            default_error = _error_text(e)

    listed = {b['name'] for b in backends}
    backends += [_failed_backend_info(r) for r in host.records
                 if r.group == _host.GROUPS[0] and r.error is not None
                 and not listed.intersection(r.backends)]
    errors = [_error_info(r) for r in host.records if r.error is not None]
    reported = {e['message'] for e in errors}
    return {
        'versions': {
            'chainer-core': chainer_core.__version__,
            'backend_api': '{}.{}'.format(*API_VERSION),
            'python': platform.python_version(),
            'python_implementation': platform.python_implementation(),
            'numpy': numpy.__version__,
            'pluggy': _dist_version('pluggy'),
            'platform': platform.platform(),
        },
        'overrides': {k: os.environ[k] for k in OVERRIDES
                      if k in os.environ},
        'default_device': default,
        'default_device_error': default_error,
        'backends': backends,
        'addons': [_addon_info(r) for r in host.records
                   if r.group == _host.GROUPS[1]],
        'errors': errors,
        'skipped': [{
            'name': ep.name,
            'group': ep.group,
            'distribution': None if ep.dist is None else ep.dist.name,
            'entry_point': ep.value,
            'reason': reason,
        } for ep, reason in skipped_eps],
        'warnings': [str(w.message) for w in caught
                     if str(w.message) not in reported],
        'discovery_error': discovery_error,
    }


def format_runtime_info(info):
    """The text ``python -m chainer_core info`` prints for ``info``."""
    v = info['versions']
    lines = [
        'chainer-core {} (backend_api {})'.format(
            v['chainer-core'], v['backend_api']),
        'Python {} ({}), NumPy {}, pluggy {}'.format(
            v['python'], v['python_implementation'], v['numpy'],
            v['pluggy']),
        'Platform: {}'.format(v['platform']),
    ]
    if info['overrides']:
        lines.append('Overrides: {}'.format(', '.join(
            '{}={}'.format(k, val) for k, val in info['overrides'].items())))
    if info['default_device'] is not None:
        lines.append('Default device: {}'.format(info['default_device']))
    else:
        lines.append('Default device: none ({})'.format(
            info['default_device_error']))
    if info['discovery_error']:
        lines.append('Plugin discovery failed: {}'.format(
            info['discovery_error']))

    lines += ['', 'Backends:']
    for b in info['backends']:
        if b['priority'] is None:
            state = 'failed to load'
        elif b['available']:
            state = 'available, devices: {}'.format(
                ', '.join(b['devices']) or 'none')
        else:
            state = 'not available: {}'.format(b['reason'])
        lines.append('  {} ({} {}){}: {}'.format(
            b['name'], b['distribution'], b['version'],
            '' if b['priority'] is None else
            ', priority {}'.format(b['priority']), state))
        if b['error'] and b['priority'] is not None and b['available']:
            lines.append('    error: {}'.format(b['error']))

    lines += ['', 'Add-ons:']
    if not info['addons']:
        lines.append('  none')
    for a in info['addons']:
        if a['error']:
            state = 'failed to load'
        else:
            state = '{}: {}'.format(a['title'], a['summary']) \
                if a['title'] else 'loaded'
        lines.append('  {} ({} {}): {}'.format(
            a['name'], a['distribution'], a['version'], state))

    lines += ['', 'Plugin errors:']
    if not info['errors']:
        lines.append('  none')
    for e in info['errors']:
        lines.append('  {}'.format(e['message']))

    if info['skipped']:
        lines += ['', 'Skipped entry points:']
        for s in info['skipped']:
            lines.append('  {} = {} ({}, {}): {}'.format(
                s['name'], s['entry_point'], s['distribution'], s['group'],
                s['reason']))
    if info['warnings']:
        lines += ['', 'Warnings:']
        lines += ['  {}'.format(w) for w in info['warnings']]
    return '\n'.join(lines) + '\n'


def print_runtime_info(out=None):
    """Print versions, backends, add-ons, devices and plugin errors.

    Args:
        out: a file-like object to write to; ``sys.stdout`` by default.
    """
    (sys.stdout if out is None else out).write(
        format_runtime_info(runtime_info()))
