"""A backend plugin built and pip-installed into a fresh virtual environment.

The other plugin tests make distributions visible by writing their metadata
by hand; this one checks that a real package with a real ``pyproject.toml``
works the same way once pip has installed it.
"""
import os
import textwrap

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "tplug-e2e"
version = "0.3.0"
dependencies = ["chainer-core"]

[project.entry-points."chainer_core.backends"]
tplug = "tplug_e2e"

[tool.setuptools]
packages = ["tplug_e2e"]
'''

USE = '''
import sys
import numpy
import chainer_core
import chainer_core.functions as F

device = chainer_core.get_device('tplug:0')
plugin = sys.modules['tplug_e2e']
assert chainer_core.get_device() is device
x = device.send(numpy.array([-2.0, 3.0], dtype=numpy.float32))
assert type(x) is plugin.Array
y = F.relu(x)
assert plugin.kernel_calls == ['relu'], plugin.kernel_calls
assert type(y.array) is plugin.Array
assert y.array.tolist() == [0.0, 3.0]
z = F.exp(x)
assert type(z.array) is plugin.Array
assert plugin.kernel_calls == ['relu']
print('ok', device.name, type(device).__module__)
'''

USE_NUMPY = '''
import numpy
import chainer_core
import chainer_core.functions as F

assert chainer_core.get_device().name == '@numpy'
y = F.relu(numpy.array([-2.0, 3.0], dtype=numpy.float32))
assert y.array.tolist() == [0.0, 3.0]
print('ok numpy')
'''


def test_pip_installed_backend(tmp_path, plugin_source, core_copy,
                               fresh_venv):
    plugin = tmp_path / 'tplug-e2e'
    (plugin / 'tplug_e2e').mkdir(parents=True)
    (plugin / 'pyproject.toml').write_text(PYPROJECT)
    (plugin / 'tplug_e2e' / '__init__.py').write_text(
        plugin_source('tplug', priority=100))
    run, python = fresh_venv.run, fresh_venv.python

    fresh_venv.install(core_copy, plugin)
    # The venv sees only what was installed into it, not this checkout.
    where = run(python, '-c', 'import chainer_core; print(chainer_core.'
                '__file__)').stdout
    assert where.startswith(str(fresh_venv.root))

    proc = run(python, '-c', USE)
    assert proc.stdout.split() == ['ok', 'tplug:0', 'tplug_e2e']
    assert proc.stderr == ''

    out = run(python, '-m', 'chainer_core', 'info').stdout
    assert 'Default device: tplug:0' in out
    assert 'tplug (tplug-e2e 0.3.0), priority 100: available, devices: ' \
        'tplug:0' in out
    assert run(str(fresh_venv.bin / 'chainer-core'), 'info').stdout == out

    purelib = run(python, '-c', 'import sysconfig; print(sysconfig.'
                  'get_paths()["purelib"])').stdout.strip()
    with open(os.path.join(purelib, 'tplug_e2e', '__init__.py'), 'a') as f:
        f.write(textwrap.dedent('''
            raise ImportError('libtplug.so: cannot open shared object file')
            '''))

    proc = run(python, '-c', USE_NUMPY)
    assert proc.stdout.strip() == 'ok numpy'
    assert proc.stderr.count('PluginWarning') == 1, proc.stderr
    assert 'tplug-e2e' in proc.stderr
    assert 'CHAINER_DEVICE=@numpy' in proc.stderr
    assert 'libtplug.so' in proc.stderr

    out = run(python, '-m', 'chainer_core', 'info').stdout
    assert 'Default device: @numpy' in out
    assert 'tplug (tplug-e2e 0.3.0): failed to load' in out
    assert "plugin 'tplug' from tplug-e2e failed at import: ImportError: " \
        'libtplug.so' in out.split('Plugin errors:')[1]

    proc = run(python, '-c',
               'import chainer_core; chainer_core.get_device("tplug")',
               check=False, timeout=60)
    assert proc.returncode == 1
    assert 'ImportError: libtplug.so' in proc.stderr
    assert 'The above exception was the direct cause' in proc.stderr
