"""``python -m chainer_core.compat``, run in subprocesses as users run it."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import chainer_core


def _run(args, tmp_path, env=None, **kwargs):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, '-m', 'chainer_core.compat'] + args,
        cwd=str(tmp_path), env=full_env, capture_output=True, text=True,
        timeout=300, **kwargs)


def _script(tmp_path, body, name='script.py'):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


def _last_json(result):
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _native_installed():
    try:
        chainer_core.get_device('native:0')
    except Exception:
        return False
    return True


def test_script_sees_argv_main_and_its_folder(tmp_path):
    (tmp_path / 'helper.py').write_text('VALUE = 42\n')
    path = _script(tmp_path, """
        import json, sys
        import helper
        print(json.dumps({'argv': sys.argv, 'name': __name__,
                          'path0': sys.path[0], 'helper': helper.VALUE}))
        """)
    out = _last_json(_run([path, '--epoch', '2', 'x'], tmp_path.parent))
    assert out == {'argv': [path, '--epoch', '2', 'x'], 'name': '__main__',
                   'path0': str(tmp_path), 'helper': 42}


def test_chainer_and_its_submodules_are_ours(tmp_path):
    path = _script(tmp_path, """
        import importlib, json
        import chainer
        import chainer.functions as F
        import chainer.links as L
        import chainer.links.model.vision.resnet
        from chainer import training
        from chainer.training import extensions
        import chainer_core
        print(json.dumps({
            'chainer': chainer is chainer_core,
            'F': F is chainer_core.functions,
            'L': L.Linear is chainer_core.links.Linear,
            'training': training is chainer_core.training,
            'extensions': extensions.LogReport is
                chainer_core.training.extensions.LogReport,
            'resnet': chainer.links.model.vision.resnet.__name__,
            'by_name': importlib.import_module(chainer.__name__ + '.links')
                is L,
            'spec': F.__spec__.name,
        }))
        """)
    out = _last_json(_run([path], tmp_path))
    assert out == {'chainer': True, 'F': True, 'L': True, 'training': True,
                   'extensions': True,
                   'resnet': 'chainer_core.links.model.vision.resnet',
                   'by_name': True, 'spec': 'chainer_core.functions'}


def test_missing_chainer_submodule_is_not_found(tmp_path):
    result = _run(['-c', 'import chainer.no_such_module'], tmp_path)
    assert result.returncode == 1
    assert "No module named 'chainer.no_such_module'" in result.stderr


@pytest.mark.skipif(not _native_installed(),
                    reason='chainer-native is not installed')
def test_chainerx_is_served_by_native(tmp_path):
    path = _script(tmp_path, """
        import json
        import chainer, chainerx
        a = chainerx.array([1, 2, 3], dtype='float32', device='native:0')
        z = chainerx.zeros((2, 3))
        with chainerx.using_device('native', 0) as device:
            inside = chainerx.get_default_device().name
            o = chainerx.ones((2,))
        try:
            chainerx.get_device('@numpy')
            refused = False
        except ValueError:
            refused = True
        print(json.dumps({
            'available': chainerx.is_available(),
            'ndarray': type(a) is chainerx.ndarray and
                type(a) is type(chainer.get_device('native:0').xp.zeros(1)),
            'same_device': chainer.get_device(chainerx.get_device('native:0'))
                is chainer.get_device('native:0'),
            'device': device.name, 'inside': inside,
            'default': chainerx.get_default_device().name,
            'sum': float(chainerx.sum(a)),
            'zeros': [list(z.shape), str(z.dtype)], 'ones': str(o.dtype),
            'numpy': chainerx.to_numpy(a).tolist(),
            'refused': refused,
        }))
        """)
    out = _last_json(_run([path], tmp_path))
    assert out == {'available': True, 'ndarray': True, 'same_device': True,
                   'device': 'native:0', 'inside': 'native:0',
                   'default': 'native:0', 'sum': 6.0,
                   'zeros': [[2, 3], 'float32'], 'ones': 'float32',
                   'numpy': [1.0, 2.0, 3.0], 'refused': True}


def test_chainerx_without_native_is_unavailable(tmp_path):
    code = textwrap.dedent("""
        import json, numpy, chainerx
        errors = []
        for make in (lambda: chainerx.sum, lambda: chainerx.zeros((2,))):
            try:
                make()
                errors.append(None)
            except (AttributeError, RuntimeError) as e:
                errors.append(str(e))
        print(json.dumps([chainerx.is_available(),
                          isinstance(numpy.zeros(1), chainerx.ndarray),
                          errors]))
        """)
    result = _run(['-c', code], tmp_path,
                  env={'CHAINER_PLUGINS_DISABLE': 'native'})
    available, is_array, errors = _last_json(result)
    assert (available, is_array) == (False, False)
    for error in errors:
        assert 'ChainerX is not available' in error


def test_cupy_is_not_aliased(tmp_path):
    code = ('import importlib.util, json, chainer, chainerx; '
            'spec = importlib.util.find_spec("cupy"); '
            'print(json.dumps(spec and spec.origin))')
    origin = _last_json(_run(['-c', code], tmp_path))
    assert origin is None or 'chainer_core' not in origin


def test_exceptions_and_exit_codes_propagate(tmp_path):
    path = _script(tmp_path, """
        import sys
        def fail():
            raise ValueError('bad value ' + sys.argv[1])
        if sys.argv[1] == 'exit':
            sys.exit(3)
        fail()
        """)
    result = _run([path, 'x'], tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith('Traceback (most recent call last):\n'
                                    '  File "{}", line 7'.format(path))
    assert 'runpy' not in result.stderr
    assert 'chainer_core/compat' not in result.stderr
    assert result.stderr.rstrip().endswith('ValueError: bad value x')
    assert _run([path, 'exit'], tmp_path).returncode == 3
    assert _run([str(tmp_path / 'missing.py')], tmp_path).returncode == 2
    assert _run([], tmp_path).returncode == 2


def test_dash_c_and_dash_m(tmp_path):
    code = 'import json, sys, chainer; print(json.dumps([sys.argv, ' \
           'chainer.__name__, __name__]))'
    assert _last_json(_run(['-c', code, 'a'], tmp_path)) == [
        ['-c', 'a'], 'chainer_core', '__main__']
    _script(tmp_path, """
        import json, sys, chainer
        print(json.dumps([sys.argv[1:], chainer.__name__, __name__]))
        """, name='as_module.py')
    result = _run(['-m', 'as_module', 'b'], tmp_path,
                  env={'PYTHONPATH': str(tmp_path)})
    assert _last_json(result) == [['b'], 'chainer_core', '__main__']


def test_install_sets_aside_and_uninstall_restores(tmp_path):
    # A stand-in for another ``chainer`` on the path.
    (tmp_path / 'chainer').mkdir()
    (tmp_path / 'chainer' / '__init__.py').write_text("WHO = 'other'\n")
    code = textwrap.dedent("""
        import importlib, json, sys
        import chainer
        from chainer_core import compat
        before = chainer.WHO
        compat.install()
        compat.install()
        import chainer
        import chainer.links
        during = [chainer.__name__, compat.is_installed()]
        compat.uninstall()
        import chainer
        after = [chainer.WHO, 'chainer.links' in sys.modules,
                 compat.is_installed()]
        print(json.dumps([before, during, after]))
        """)
    result = subprocess.run([sys.executable, '-c', code], cwd=str(tmp_path),
                            capture_output=True, text=True, timeout=300)
    assert _last_json(result) == [
        'other', ['chainer_core', True], ['other', False, False]]
