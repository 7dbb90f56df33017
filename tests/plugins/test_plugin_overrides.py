"""Environment overrides and lazy discovery, each in a fresh process."""
import json

import importlib_metadata
import pytest

from chainer_core._runtime import host as _host

# Plugins installed where the tests run (switched off for these runs).
FOREIGN = {ep.name for group in _host.GROUPS
           for ep in importlib_metadata.entry_points(group=group)
           if ep.dist is None or ep.dist.name != _host.CORE_DISTRIBUTION}

REPORT = '''
import json, sys, warnings
warnings.simplefilter('always')
import chainer_core
from chainer_core._runtime import host as _host
imported_at_import = sorted(m for m in sys.modules if m.endswith('_plugin'))
try:
    default = chainer_core.get_device().name
except Exception as e:
    default = '{}: {}'.format(type(e).__name__, e)
explicit = {}
for spec in ('tplug:0', 'other:0'):
    try:
        explicit[spec] = chainer_core.get_device(spec).name
    except Exception as e:
        explicit[spec] = '{}: {}'.format(type(e).__name__, e)
print(json.dumps({
    'imported_at_import': imported_at_import,
    'imported': sorted(m for m in sys.modules if m.endswith('_plugin')
                       or m == 'tplug_tools'),
    'default': default,
    'explicit': explicit,
    'skipped': {ep.name: why for ep, why in _host.host.entry_points()[1]},
}))
'''

ADDON = '''\
from backend_api import hookimpl

api_version = (2, 0)


@hookimpl
def chainer_core_addon_info():
    return {'name': 'tools', 'version': '1', 'summary': 'test add-on'}
'''


@pytest.fixture
def two(site):
    """Backends tplug (priority 100) and other (50), and one add-on."""
    site.add_backend('tplug', priority=100)
    site.add_backend('other', priority=50)
    site.add('tplug-tools', {'tplug_tools': ADDON},
             addons={'tplug_tools': 'tplug_tools'})
    return site


def report(site, **env):
    r = json.loads(site.python(REPORT, **env).stdout)
    # Plugins installed in the environment running the tests are switched
    # off for these runs; only the test's own plugins are of interest.
    r['skipped'] = {k: v for k, v in r['skipped'].items()
                    if k not in FOREIGN}
    return r


def test_import_loads_no_plugin_and_discovery_loads_them(two):
    r = report(two)
    assert r['imported_at_import'] == []
    # A device lookup imports backends only: add-ons load when used.
    assert r['imported'] == ['other_plugin', 'tplug_plugin']
    assert r['default'] == 'tplug:0'
    assert r['explicit'] == {'tplug:0': 'tplug:0', 'other:0': 'other:0'}
    assert r['skipped'] == {}


def test_an_addon_loads_when_used(two):
    proc = two.python('''
        import sys
        import chainer_core
        chainer_core.get_device()
        assert 'tplug_tools' not in sys.modules
        try:
            chainer_core.config.no_such_key
        except AttributeError:
            pass
        assert 'tplug_tools' in sys.modules
    ''')
    assert proc.stderr == ''


@pytest.mark.parametrize('order, default', [
    ('numpy,tplug,other', '@numpy'),
    ('other,tplug', 'other:0'),
    ('tplug,other,numpy', 'tplug:0'),
])
def test_chainer_backends_replaces_priorities(two, order, default):
    r = report(two, CHAINER_BACKENDS=order)
    assert r['default'] == default


def test_chainer_backends_is_an_allow_list(two):
    r = report(two, CHAINER_BACKENDS='numpy,other')
    assert r['default'] == '@numpy'
    assert 'tplug_plugin' not in r['imported']
    assert r['explicit']['other:0'] == 'other:0'
    assert r['explicit']['tplug:0'].startswith('DeviceSpecError')
    assert 'not in CHAINER_BACKENDS' in r['explicit']['tplug:0']
    assert r['skipped'] == {'tplug': 'not in CHAINER_BACKENDS'}
    assert 'tplug_tools' not in r['imported']


def test_chainer_backends_naming_a_missing_backend(two):
    r = report(two, CHAINER_BACKENDS='nosuch,numpy')
    assert r['default'].startswith('DeviceSpecError')
    assert "'nosuch'" in r['default']


@pytest.mark.parametrize('name', ['tplug', 'tplug-dist'])
def test_plugins_disable_by_entry_point_or_distribution(two, name):
    r = report(two, CHAINER_PLUGINS_DISABLE=name)
    assert r['default'] == 'other:0'
    assert 'tplug_plugin' not in r['imported']
    assert r['skipped']['tplug'] == 'disabled by CHAINER_PLUGINS_DISABLE'
    assert 'CHAINER_PLUGINS_DISABLE' in r['explicit']['tplug:0']


def test_plugins_autoload_off(two):
    r = report(two, CHAINER_PLUGINS_AUTOLOAD='0')
    assert r['imported'] == []
    assert r['default'] == '@numpy'
    assert r['skipped'] == {n: 'CHAINER_PLUGINS_AUTOLOAD=0'
                            for n in ('tplug', 'other', 'tplug_tools')}


def test_plugins_autoload_off_still_loads_named_backends(two):
    r = report(two, CHAINER_PLUGINS_AUTOLOAD='0',
               CHAINER_BACKENDS='other,numpy')
    assert r['imported'] == ['other_plugin']
    assert r['default'] == 'other:0'


def test_chainer_device_overrides_priorities(two):
    r = report(two, CHAINER_DEVICE='other:0')
    assert r['default'] == 'other:0'


def test_chainer_device_numpy_is_an_escape_hatch(site):
    site.add_backend('tplug', extra="raise RuntimeError('tplug is broken')")
    proc = site.python('''
        import sys
        import chainer_core
        import chainer_core.functions as F
        import numpy
        assert chainer_core.get_device().name == '@numpy'
        F.relu(numpy.ones(2, dtype=numpy.float32))
        assert 'tplug_plugin' not in sys.modules
        ''', CHAINER_DEVICE='@numpy')
    assert proc.stderr == ''


def test_broken_plugin_warns_once_per_process(site):
    site.add_backend('tplug', extra="raise RuntimeError('tplug is broken')")
    proc = site.python('''
        import chainer_core
        import chainer_core.functions as F
        import numpy
        for _ in range(3):
            assert chainer_core.get_device().name == '@numpy'
            F.relu(numpy.ones(2, dtype=numpy.float32))
        ''')
    assert proc.stderr.count('PluginWarning') == 1, proc.stderr
    assert 'tplug-dist' in proc.stderr
    assert 'CHAINER_DEVICE=@numpy' in proc.stderr
