"""Plugin distributions written on the fly, discoverable without pip.

A directory on ``sys.path`` holding a package and a ``<name>-<version>
.dist-info`` folder with ``METADATA`` and ``entry_points.txt`` is what an
installed distribution looks like to importlib-metadata, so these plugins go
through exactly the discovery path of pip-installed ones. :class:`Venv`
is for the few tests that pip-install real distributions instead.
"""
import os
import pathlib
import re
import shutil
import string
import subprocess
import sys
import textwrap
import venv

import importlib_metadata
import pytest

from chainer_core._runtime import graphs as graph, host as _host, kernels
from chainer_core import _numpy_backend
from chainer_core.configuration import global_config

OVERRIDES = ('CHAINER_DEVICE', 'CHAINER_BACKENDS', 'CHAINER_PLUGINS_DISABLE',
             'CHAINER_PLUGINS_AUTOLOAD')

# Plugins installed in the environment running the tests (a tox env with a
# real backend, say) would change which device is the default; they are
# turned off through the override made for that.
# Installed plugins (chainer-core's own NumPy backend is not one).
FOREIGN = sorted({ep.name for group in _host.GROUPS
                  for ep in importlib_metadata.entry_points(group=group)
                  if ep.dist is None
                  or ep.dist.name != _host.CORE_DISTRIBUTION})

BACKEND_TEMPLATE = string.Template('''\
"""Test backend $name: its arrays are the ndarray subclass ``Array``."""
import numpy

from backend_api import DeviceBase, hookimpl

api_version = $api_version
NAME = '$name'
kernel_calls = []


class Array(numpy.ndarray):
    pass


class Backend:
    name = NAME
    priority = $priority

    def is_available(self):
        return True

    def device_count(self):
        return 1

    def get_device(self, index=0):
        return DEVICE

    def parse_device_spec(self, spec):
        if spec in (NAME, '@' + NAME, NAME + ':0', '@' + NAME + ':0'):
            return DEVICE
        return None

    def device_from_array(self, array):
        return DEVICE if type(array) is Array else None


class Device(DeviceBase):
    xp = numpy

    def __init__(self, backend):
        self.backend = backend
        self.name = NAME + ':0'

    def send_array(self, array):
        return numpy.array(array).view(Array)

    def is_array_supported(self, array):
        return type(array) is Array


BACKEND = Backend()
DEVICE = Device(BACKEND)


def relu(x):
    kernel_calls.append('relu')
    return numpy.maximum(x, x.dtype.type(0))


@hookimpl
def chainer_core_register_backends(registry):
    registry.register_backend(BACKEND)


@hookimpl
def chainer_core_register_kernels(registry):
    registry.register_kernel('relu', NAME, relu)
''')


def backend_source(name, priority=100, api_version=(2, 0), extra=''):
    """Source of a backend plugin module; ``extra`` is appended to it.

    Appended code runs last at import, so it can redefine a hook, break the
    backend, or raise to make the import fail.
    """
    return BACKEND_TEMPLATE.substitute(
        name=name, priority=priority, api_version=repr(api_version)) + \
        textwrap.dedent(extra)


class PluginSite:
    """A directory of plugin distributions, put on sys.path or PYTHONPATH."""

    def __init__(self, root):
        self.root = root
        root.mkdir(exist_ok=True)

    def add(self, dist, modules, backends=None, addons=None, version='1.0'):
        """Write a distribution.

        ``modules`` maps a module name to its source; ``backends`` and
        ``addons`` map entry-point names to values in the two groups.
        """
        for module, source in modules.items():
            (self.root / (module + '.py')).write_text(source)
        info = self.root / '{}-{}.dist-info'.format(
            re.sub(r'[-_.]+', '_', dist), version)
        info.mkdir()
        (info / 'METADATA').write_text(
            'Metadata-Version: 2.1\nName: {}\nVersion: {}\n'.format(
                dist, version))
        lines = []
        for group, eps in ((_host.GROUPS[0], backends),
                           (_host.GROUPS[1], addons)):
            if eps:
                lines.append('[{}]'.format(group))
                lines += ['{} = {}'.format(k, v) for k, v in eps.items()]
                lines.append('')
        (info / 'entry_points.txt').write_text('\n'.join(lines))
        return self

    def add_backend(self, name, dist=None, module=None, version='1.0',
                    **kwargs):
        """A distribution with one backend plugin made from the template."""
        module = module or name + '_plugin'
        return self.add(dist or name + '-dist',
                        {module: backend_source(name, **kwargs)},
                        backends={name: module}, version=version)

    def env(self, **overrides):
        env = {k: v for k, v in os.environ.items() if k not in OVERRIDES}
        if FOREIGN:
            env['CHAINER_PLUGINS_DISABLE'] = ','.join(FOREIGN)
        env['PYTHONPATH'] = os.pathsep.join(
            [str(self.root)] + ([env['PYTHONPATH']]
                                if env.get('PYTHONPATH') else []))
        for k, v in overrides.items():
            if k == 'CHAINER_PLUGINS_DISABLE' and FOREIGN:
                v = ','.join(FOREIGN + [v])
            env[k] = v
        return env

    def run(self, *args, **overrides):
        """Run ``python *args`` in a process that sees these plugins."""
        return subprocess.run(
            [sys.executable] + list(args), env=self.env(**overrides),
            cwd=str(self.root.parent), capture_output=True, text=True,
            timeout=120)

    def python(self, code, **overrides):
        """Run ``code``; fail with its stderr unless it exits with 0."""
        proc = self.run('-c', textwrap.dedent(code), **overrides)
        assert proc.returncode == 0, proc.stderr
        return proc


REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def core_copy(tmp_path):
    """A folder holding the files that make the chainer-core distribution,
    without builds (pip then builds it there, not in this checkout)."""
    dest = tmp_path / 'chainer-core'
    dest.mkdir()
    for name in ('pyproject.toml', 'README.md', 'LICENSE'):
        if (REPO / name).exists():
            shutil.copy(REPO / name, dest / name)
    for package in ('chainer_core', 'backend_api'):
        shutil.copytree(REPO / package, dest / package,
                        ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
    return dest


class Venv:
    """A fresh virtual environment: it sees what is pip-installed into it,
    not this checkout, and none of the CHAINER_* settings of this one."""

    def __init__(self, root):
        self.root = root
        venv.create(root, with_pip=True)
        self.bin = root / ('Scripts' if os.name == 'nt' else 'bin')
        self.python = str(self.bin / 'python')
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('CHAINER_')
                    and k not in ('PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV')}

    def run(self, *args, check=True, timeout=300, **env):
        """Run ``args`` in the parent folder of the environment, with
        ``env`` added to its environment; fail with the output unless it
        exits with 0 (``check``)."""
        proc = subprocess.run(
            list(args), env=dict(self.env, **env), cwd=str(self.root.parent),
            capture_output=True, text=True, timeout=timeout)
        if check:
            assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def install(self, *targets):
        self.run(self.python, '-m', 'pip', 'install', '--quiet',
                 *[str(t) for t in targets])


@pytest.fixture
def fresh_venv(tmp_path):
    """A :class:`Venv` under ``tmp_path``."""
    return Venv(tmp_path / 'venv')


@pytest.fixture
def site(tmp_path):
    """Plugin distributions for subprocesses (pass them env overrides)."""
    return PluginSite(tmp_path / 'site')


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Plugin distributions seen by this process's host, reset around a test.

    The host, the kernel implementations, the configuration keys and the
    imported plugin modules are restored afterwards, so later tests see the
    state the test session started with.
    """
    host = _host.host
    saved_host = dict(host.__dict__)
    saved_impls = {s.name: dict(s.implementations) for s in kernels.specs()}
    saved_graph = (dict(graph._graphs),
                   {s.name: dict(s.implementations) for s in graph.specs()})
    saved_config = set(global_config.__dict__)
    saved_docs = dict(global_config._docs)

    for var in OVERRIDES:
        monkeypatch.delenv(var, raising=False)
    if FOREIGN:
        monkeypatch.setenv('CHAINER_PLUGINS_DISABLE', ','.join(FOREIGN))
    plugins = PluginSite(tmp_path / 'site')
    monkeypatch.syspath_prepend(str(plugins.root))
    host.reset()
    host.add_builtin('numpy', _numpy_backend, global_config.add_key)

    yield plugins

    host.__dict__.clear()
    host.__dict__.update(saved_host)
    for spec in kernels.specs():
        spec.implementations.clear()
        spec.implementations.update(saved_impls.get(spec.name, {}))
    kernels._cache.clear()
    graph.remove_all()
    graph._graphs.update(saved_graph[0])
    for spec in graph.specs():
        spec.implementations.update(saved_graph[1].get(spec.name, {}))
    for key in set(global_config.__dict__) - saved_config:
        del global_config.__dict__[key]
    global_config._docs.clear()
    global_config._docs.update(saved_docs)
    root = str(plugins.root)
    for name, module in list(sys.modules.items()):
        if (getattr(module, '__file__', None) or '').startswith(root):
            del sys.modules[name]


@pytest.fixture
def disable(monkeypatch):
    """Set CHAINER_PLUGINS_DISABLE, keeping the foreign plugins off."""
    def set_disabled(*names):
        monkeypatch.setenv('CHAINER_PLUGINS_DISABLE',
                           ','.join(FOREIGN + list(names)))
    return set_disabled


@pytest.fixture
def plugin_source():
    """:func:`backend_source`, for tests that package a plugin themselves."""
    return backend_source
