"""Run test code the way pytest would: in a module of its own, or in a
pytest subprocess."""
import itertools
import os
import subprocess
import sys
import textwrap
import types

_counter = itertools.count()


def module_from(source):
    """Execute ``source`` as a fresh module (registered in sys.modules,
    as decorators that add classes to a module need)."""
    name = '_generated_test_module_{}'.format(next(_counter))
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(textwrap.dedent(source), name, 'exec'), module.__dict__)
    return module


def run_pytest(tmp_path, source, *args):
    """Run pytest on ``source`` in a subprocess: (return code, output)."""
    path = tmp_path / 'test_generated.py'
    path.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    env['PYTHONPATH'] = repo + os.pathsep + env.get('PYTHONPATH', '')
    proc = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-q',
         '-rA', str(path)] + list(args),
        capture_output=True, text=True, cwd=str(tmp_path), env=env,
        timeout=300)
    return proc.returncode, proc.stdout + proc.stderr
