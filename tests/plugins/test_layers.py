"""The layering of DESIGN.md section 2, read from the source with ``ast``.

* ``backend_api`` (the contract) imports nothing of ``chainer_core``.
* Plugin and example sources (not their tests) use the core's public API
  only: no private (``_``-prefixed) module or name of ``chainer_core``,
  imported or reached as an attribute, and no core module loaded by a path
  string through importlib.
"""
import ast
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CORE = 'chainer_core'

# Loaders that take a module path as a string.
_LOADERS = {'import_module', '__import__', 'find_spec', 'resolve_name'}

# Violations known and being fixed; each mark is strict, so the test fails
# once the file is clean, and the entry must go then.
KNOWN = {}


def _is_core(module):
    return module == CORE or module.startswith(CORE + '.')


def _private(name):
    return name.startswith('_') and not (name.startswith('__') and
                                         name.endswith('__'))


def _string_prefix(node):
    """The constant text a string expression starts with ('' if none):
    ``'chainer_core.' + name`` and f-strings count by their first part."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _string_prefix(node.left)
    if isinstance(node, ast.JoinedStr) and node.values:
        return _string_prefix(node.values[0])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == 'format':
        return _string_prefix(node.func.value)
    return ''


def _called_name(func):
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _dotted(node):
    """``['a', 'b', 'c']`` for the expression ``a.b.c``, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def core_imports(tree):
    """``(line, module)`` for every import of chainer_core, anywhere in the
    module (function bodies included), and every importlib load of it."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names
                      if _is_core(a.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and _is_core(node.module):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and \
                _called_name(node.func) in _LOADERS:
            target = _string_prefix(node.args[0])
            if _is_core(target.rstrip('.')):
                found.append((node.lineno, target))
    return found


def private_core_uses(tree):
    """``'line N: ...'`` for each use of the core beyond its public API."""
    problems = set()
    core_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _is_core(alias.name):
                    continue
                parts = alias.name.split('.')
                if any(_private(p) for p in parts):
                    problems.add((node.lineno, 'imports the private module '
                                  + alias.name))
                core_names.add(alias.asname or parts[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level or not node.module or not _is_core(node.module):
                continue
            if any(_private(p) for p in node.module.split('.')):
                problems.add((node.lineno, 'imports from the private module '
                              + node.module))
                continue
            for alias in node.names:
                if _private(alias.name):
                    problems.add((node.lineno, 'imports the private name {} '
                                  'from {}'.format(alias.name, node.module)))
                else:
                    core_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Call) and node.args and \
                _called_name(node.func) in _LOADERS:
            target = _string_prefix(node.args[0])
            if _is_core(target.rstrip('.')):
                problems.add((node.lineno, 'loads the core module {!r} by '
                              'path with {}()'.format(
                                  target, _called_name(node.func))))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        parts = _dotted(node)
        if parts and parts[0] in core_names and \
                any(_private(p) for p in parts[1:]):
            problems.add((node.lineno, 'reaches the private ' +
                          '.'.join(parts)))
    return ['line {}: {}'.format(*p) for p in sorted(problems)]


def _sources(patterns):
    files = set()
    for pattern in patterns:
        files.update(p for p in REPO.glob(pattern)
                     if 'tests' not in p.relative_to(REPO).parts
                     and 'build' not in p.relative_to(REPO).parts)
    return sorted(str(p.relative_to(REPO)) for p in files)


CONTRACT = _sources(['backend_api/**/*.py'])
PLUGIN_SOURCES = _sources(['plugins/*/src/**/*.py',
                           'plugins/*/chainer_*/**/*.py',
                           'examples/**/*.py'])


def _parse(path):
    return ast.parse((REPO / path).read_text(), filename=path)


def _params(paths):
    return [pytest.param(path, id=path, marks=pytest.mark.xfail(
        strict=True, reason=KNOWN[path])) if path in KNOWN else path
        for path in paths]


def test_sources_are_found():
    assert 'backend_api/device.py' in CONTRACT
    for plugin in ('chainer-native', 'chainer-mkldnn', 'chainer-mn'):
        assert any(p.startswith('plugins/{}/'.format(plugin))
                   for p in PLUGIN_SOURCES), plugin
    assert not set(KNOWN) - set(PLUGIN_SOURCES), 'stale entries in KNOWN'


@pytest.mark.parametrize('path', CONTRACT)
def test_contract_imports_nothing_of_the_core(path):
    found = core_imports(_parse(path))
    assert not found, '{} imports the core: {}'.format(path, found)


@pytest.mark.parametrize('path', _params(PLUGIN_SOURCES))
def test_plugin_uses_only_the_public_core(path):
    problems = private_core_uses(_parse(path))
    assert not problems, '{}:\n  {}'.format(path, '\n  '.join(problems))


@pytest.mark.parametrize('source', [
    'import chainer_core._runtime.host',
    'import chainer_core.functions._util as u',
    'from chainer_core._runtime import host',
    'from chainer_core import _numpy_backend',
    'from chainer_core.backend import _device_from_array',
    'import chainer_core\nchainer_core._runtime.host.reset()',
    'import chainer_core as chainer\nx = chainer._runtime_info',
    'from chainer_core import backend\nbackend._array_of(1)',
    'import importlib\n'
    'importlib.import_module("chainer_core.functions." + name)',
    'from importlib import import_module\n'
    'import_module(f"chainer_core.links.{name}")',
    'def f():\n    from chainer_core._runtime import kernels',
])
def test_checker_finds_private_uses(source):
    assert private_core_uses(ast.parse(source))


@pytest.mark.parametrize('source', [
    'import chainer_core as chainer\nchainer.functions.relu',
    'from chainer_core.configuration import config as _config',
    'import chainer_core\nv = chainer_core.__version__',
    'from chainer_core.backend import Intel64Device',
    'import importlib\nimportlib.import_module("chainer_native._core")',
    'from . import _kernels',
])
def test_checker_allows_public_uses(source):
    assert private_core_uses(ast.parse(source)) == []


@pytest.mark.parametrize('source', [
    'import chainer_core',
    'def f():\n    from chainer_core.backend import get_device',
    'import importlib\nimportlib.import_module("chainer_core")',
])
def test_checker_finds_core_imports(source):
    assert core_imports(ast.parse(source))
