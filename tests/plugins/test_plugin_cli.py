"""``python -m chainer_core info`` and ``kernels``, and docs/kernels.md."""
import io
import json
import pathlib

import pytest

import chainer_core
from chainer_core.__main__ import main

DOCS = pathlib.Path(__file__).resolve().parents[2] / 'docs'

ADDON = '''\
from backend_api import hookimpl

api_version = (2, 0)


@hookimpl
def chainer_core_addon_info():
    return {'name': 'Tplug tools', 'version': '3.1',
            'summary': 'extra things for tests'}
'''


@pytest.fixture
def installed(site):
    """A working backend, an unavailable one, a broken one, an add-on."""
    site.add_backend('tplug', priority=100, version='2.5')
    site.add_backend('tpoff', priority=300, extra='''
        Backend.is_available = lambda self: False
        Backend.unavailable_reason = lambda self: 'no tpoff card found'
        ''')
    site.add_backend('tpbad', dist='tpbad-dist',
                     extra="raise ImportError('libtpbad.so not found')")
    site.add('tplug-tools', {'tplug_tools': ADDON},
             addons={'tplug_tools': 'tplug_tools'}, version='3.1')
    site.add_backend('tpskip')
    return site


def info(site, *args, **env):
    proc = site.run('-m', 'chainer_core', 'info', *args, **env)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_info_lists_backends_addons_and_errors(installed):
    out = info(installed, CHAINER_PLUGINS_DISABLE='tpskip').stdout
    assert 'chainer-core {}'.format(chainer_core.__version__) in out
    assert 'NumPy' in out and 'Python' in out
    assert 'Default device: tplug:0' in out
    assert 'tplug (tplug-dist 2.5), priority 100: available, devices: ' \
        'tplug:0' in out
    assert 'tpoff (tpoff-dist 1.0), priority 300: not available: ' \
        'no tpoff card found' in out
    assert 'numpy (chainer-core' in out
    assert 'tpbad (tpbad-dist 1.0): failed to load' in out
    assert 'tplug_tools (tplug-tools 3.1): Tplug tools: extra things for ' \
        'tests' in out
    errors = out.split('Plugin errors:')[1]
    assert 'tpbad-dist failed at import: ImportError: libtpbad.so not ' \
        'found' in errors
    skipped = out.split('Skipped entry points:')[1]
    assert 'tpskip = tpskip_plugin (tpskip-dist, chainer_core.backends): ' \
        'disabled by CHAINER_PLUGINS_DISABLE' in skipped
    assert 'CHAINER_PLUGINS_DISABLE=' in out.split('Default device')[0]


def test_info_json_has_the_same_content(installed):
    data = json.loads(info(installed, '--json',
                           CHAINER_PLUGINS_DISABLE='tpskip').stdout)
    assert data['default_device'] == 'tplug:0'
    assert data['default_device_error'] is None
    assert data['versions']['chainer-core'] == chainer_core.__version__
    backends = {b['name']: b for b in data['backends']}
    assert backends['tplug'] == {
        'name': 'tplug', 'distribution': 'tplug-dist', 'version': '2.5',
        'priority': 100, 'available': True, 'reason': None,
        'devices': ['tplug:0'], 'error': None}
    assert backends['tpoff']['available'] is False
    assert backends['tpoff']['reason'] == 'no tpoff card found'
    assert backends['numpy']['devices'] == ['@numpy']
    assert backends['tpbad']['available'] is False
    assert 'libtpbad.so not found' in backends['tpbad']['error']
    assert [b['name'] for b in data['backends']] == [
        'tpoff', 'tplug', 'numpy', 'tpbad']
    addon, = data['addons']
    assert addon['name'] == 'tplug_tools'
    assert addon['summary'] == 'extra things for tests'
    error, = data['errors']
    assert error['plugin'] == 'tpbad'
    assert error['distribution'] == 'tpbad-dist'
    assert error['cause'] == 'ImportError'
    skipped = [s for s in data['skipped'] if s['name'] == 'tpskip']
    assert skipped == [{
        'name': 'tpskip', 'group': 'chainer_core.backends',
        'distribution': 'tpskip-dist', 'entry_point': 'tpskip_plugin',
        'reason': 'disabled by CHAINER_PLUGINS_DISABLE'}]


def test_info_reports_what_prevents_a_default_device(installed):
    out = info(installed, CHAINER_DEVICE='tpbad:0').stdout
    line, = [s for s in out.splitlines() if s.startswith('Default device')]
    assert line.startswith('Default device: none (PluginError: ')
    assert 'libtpbad.so not found' in line
    data = json.loads(info(installed, '--json',
                           CHAINER_DEVICE='tpbad:0').stdout)
    assert data['default_device'] is None
    assert 'libtpbad.so not found' in data['default_device_error']


def test_info_survives_a_backend_raising_everywhere(site):
    site.add_backend('tplug', extra='''
        def fail(self, *args):
            raise RuntimeError('tplug driver crashed')
        Backend.is_available = fail
        Backend.unavailable_reason = fail
        Backend.parse_device_spec = fail
        ''')
    data = json.loads(info(site, '--json').stdout)
    assert data['default_device'] == '@numpy'
    tplug, = [b for b in data['backends'] if b['name'] == 'tplug']
    assert 'tplug driver crashed' in tplug['error']
    assert any('initialisation' in e['message'] for e in data['errors'])
    assert 'tplug driver crashed' in info(site).stdout


def test_info_reports_equal_priorities(site):
    site.add_backend('tpa', priority=100)
    site.add_backend('tpb', priority=100)
    out = info(site).stdout
    assert 'Default device: tpa:0' in out
    warning, = out.split('Warnings:')[1].strip().splitlines()
    assert 'share priority 100' in warning


def test_print_runtime_info_writes_to_out():
    out = io.StringIO()
    chainer_core.print_runtime_info(out=out)
    assert out.getvalue().startswith('chainer-core ')
    assert 'Default device: ' in out.getvalue()


def test_kernels_lists_plugin_implementations(sandbox, capsys):
    sandbox.add_backend('tplug')
    assert main(['kernels']) == 0
    out = capsys.readouterr().out
    relu = out.split('\nrelu(x)\n')[1].split('\n')[:2]
    assert relu[0] == '    y = max(x, 0).'
    assert relu[1] == ('    implemented by: reference (any device with an '
                       'xp), tplug (tplug-dist)')
    exp = out.split('\nexp(x)\n')[1].split('\n')[1]
    assert exp == '    implemented by: reference (any device with an xp)'


def test_kernels_lists_graph_kernels_by_name(sandbox, capsys):
    sandbox.add_backend('tplug', extra='''
        @hookimpl
        def chainer_core_register_kernels(registry):
            registry.register_graph_kernel(
                'softmax', NAME, lambda label, inputs, axis: NotImplemented)
        ''')
    assert main(['kernels']) == 0
    graph = capsys.readouterr().out.split('\nGraph kernels')[1]

    def entry(signature):
        lines = graph.split('\n' + signature + '\n')[1].split('\n')
        out = []
        for line in lines:
            if not line.startswith('    '):
                break
            out.append(line)
        return out

    softmax = entry('softmax(label, inputs, axis)')
    assert softmax[1:] == [
        '    rule: gyy = mul(y0, gy0)',
        '    rule: s = broadcast_to(sum(gyy, axis=axis, keepdims=True), '
        'shape=x0.shape)',
        '    rule: gx0 = sub(gyy, mul(y0, s))',
        '    implemented by: tplug (tplug-dist)']
    relu = entry('relu(label, inputs)')
    assert relu[1:] == ['    rule: gx0 = relu_grad(y0, gy0)',
                        '    implemented by: nothing installed']
    rule_kernels = graph.split('\nRule kernels')[1]
    assert '\nrelu_grad(y, gy) -> 1 array\n' in rule_kernels
    assert '\ndiv_grad(a, b, gy) -> 2 arrays\n' in rule_kernels


def test_kernels_markdown_ignores_installed_plugins(sandbox, capsys):
    assert main(['kernels', '--markdown']) == 0
    plain = capsys.readouterr().out
    sandbox.add_backend('tplug')
    chainer_core.get_device('tplug:0')
    assert main(['kernels', '--markdown']) == 0
    assert capsys.readouterr().out == plain
    assert '| `relu` | `(x)` | yes | y = max(x, 0). |' in plain


def test_docs_kernels_md_is_up_to_date(site):
    proc = site.run('-m', 'chainer_core', 'kernels', '--markdown')
    assert proc.returncode == 0, proc.stderr
    current = (DOCS / 'kernels.md').read_text()
    assert proc.stdout == current, (
        'docs/kernels.md is out of date with the kernel registry; '
        'regenerate it: python -m chainer_core kernels --markdown > '
        'docs/kernels.md')


def test_every_kernel_is_declared_by_importing_chainer_core(site):
    # Plugins register kernels during discovery; a kernel declared by a
    # module that `import chainer_core` does not import is unknown then, and
    # the plugin registering it would be refused.
    proc = site.python('''
        import importlib, pkgutil
        import chainer_core
        from chainer_core._runtime import graphs, kernels
        def declared():
            return {s.name for s in kernels.specs()} | {
                'graph kernel ' + s.name for s in graphs.specs()}
        before = declared()
        for m in pkgutil.walk_packages(chainer_core.__path__,
                                       'chainer_core.'):
            if m.name != 'chainer_core.__main__' and \\
                    not m.name.startswith('chainer_core.testing'):
                importlib.import_module(m.name)
        print(sorted(declared() - before))
        ''')
    assert proc.stdout.strip() == '[]', (
        'kernels declared by modules `import chainer_core` does not import: '
        + proc.stdout)


def test_usage_errors():
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(['nosuchcommand'])
    assert e.value.code == 2


def _code_after(text, marker):
    start = text.index('```', text.index(marker))
    start = text.index('\n', start) + 1
    return text[start:text.index('```', start)]


def test_docs_plugins_md_minimal_backend_works(site):
    guide = (DOCS / 'plugins.md').read_text()
    section = guide[guide.index('## 9. A minimal backend'):]
    site.add('mybackend-chainer', {'mybackend_chainer': _code_after(
        section, '`mybackend_chainer/__init__.py`:')},
        backends={'mybackend': 'mybackend_chainer'}, version='0.1.0')
    usage = _code_after(section[section.index('Install it next to'):],
                        '```python')
    proc = site.python(usage + '''
import sys
from chainer_core._runtime import kernels
plugin = sys.modules['mybackend_chainer']
assert kernels.lookup('relu', x).__wrapped__ is plugin.relu
assert chainer.get_device() is device
assert type(y.array) is sys.modules['mybackend_chainer'].MyArray
assert type(z.array) is sys.modules['mybackend_chainer'].MyArray
''')
    assert proc.stderr == ''
    out = info(site).stdout
    assert ('mybackend (mybackend-chainer 0.1.0), priority 100: available, '
            'devices: mybackend:0') in out
