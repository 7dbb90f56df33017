"""Every public name of Chainer v7's API exists here, with Chainer's
parameters.

``chainer_v7_api.json`` lists, per Chainer module, its public names and, for
callables, the parameter names of the function (or of ``__init__`` for a
class); ``__modules__`` lists the importable modules of the packages. The
``chainer.`` prefix maps to ``chainer_core.``.

A parameter list matches when Chainer's named parameters are a prefix of
ours (ours may add trailing ones), or when either side takes
``*args, **kwargs`` (Chainer's deprecated aliases do).
"""
import importlib
import inspect
import json
import os
import types

import pytest

with open(os.path.join(os.path.dirname(__file__),
                       'chainer_v7_api.json')) as _f:
    _API = json.load(_f)

# Names that need software this project does not provide; each is listed
# with the reason, and the README's compatibility section says the same.
NOT_PROVIDED = {
    'chainer.functions.theano':
        'Theano is unmaintained and does not install on current Pythons',
    'chainer.links.theano': 'as chainer.functions.theano',
    'chainer.links.TheanoFunction': 'as chainer.functions.theano',
}


def _ours(module_name):
    return 'chainer_core' + module_name[len('chainer'):]


def _params(obj):
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    kinds = {
        inspect.Parameter.POSITIONAL_ONLY: '',
        inspect.Parameter.POSITIONAL_OR_KEYWORD: '',
        inspect.Parameter.VAR_POSITIONAL: '*',
        inspect.Parameter.VAR_KEYWORD: '**',
        inspect.Parameter.KEYWORD_ONLY: 'kw:',
    }
    out = []
    for p in sig.parameters.values():
        if inspect.isclass(obj) and not out and p.name == 'self':
            continue
        out.append(kinds[p.kind] + p.name)
    return out


def _modules():
    return [m for m in _API['__modules__'] if m not in NOT_PROVIDED]


def _names():
    out = []
    for module, names in sorted(_API.items()):
        if module.startswith('__'):
            continue
        for name, spec in sorted(names.items()):
            if module + '.' + name not in NOT_PROVIDED:
                out.append((module, name, spec))
    return out


@pytest.mark.parametrize('module', _modules())
def test_module_imports(module):
    importlib.import_module(_ours(module))


@pytest.mark.parametrize('module,name,spec', _names(),
                         ids=lambda v: v if isinstance(v, str) else '')
def test_name(module, name, spec):
    mod = importlib.import_module(_ours(module))
    assert hasattr(mod, name), '{}.{} is missing'.format(_ours(module), name)
    obj = getattr(mod, name)
    if spec == 'module':
        assert isinstance(obj, types.ModuleType), (
            '{}.{} should be a module, is {!r}'.format(
                _ours(module), name, obj))
        return
    if not isinstance(spec, list):
        return
    ours = _params(obj)
    if ours is None or ('*args' in ours and '**kwargs' in ours):
        return
    if '*args' in spec and '**kwargs' in spec:
        return
    theirs = [p for p in spec if not p.startswith('**')]
    ours_named = [p for p in ours if not p.startswith('**')]
    assert ours_named[:len(theirs)] == theirs, (
        '{}.{}: Chainer takes {}, ours takes {}'.format(
            _ours(module), name, spec, ours))
