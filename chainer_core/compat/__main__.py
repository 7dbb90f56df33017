"""``python -m chainer_core.compat [-c CODE | -m MODULE | SCRIPT] [ARGS...]``:
run Chainer v7 code as ``python`` would, with ``chainer`` and ``chainerx``
resolving to chainer-core (see :mod:`chainer_core.compat`)."""
import os
import runpy
import sys
import types

from chainer_core import compat

USAGE = ('usage: python -m chainer_core.compat '
         '[-c CODE | -m MODULE | SCRIPT] [ARGS...]')


def _run_code(code, args):
    sys.argv = ['-c'] + args
    module = types.ModuleType('__main__')
    module.__builtins__ = __builtins__
    sys.modules['__main__'] = module
    exec(compile(code, '<string>', 'exec'), module.__dict__)


def _run_module(name, args):
    sys.argv = [name] + args
    runpy.run_module(name, run_name='__main__', alter_sys=True)


def _run_script(path, args):
    sys.argv = [path] + args
    if os.path.isfile(path):
        # As for ``python SCRIPT``: the script's folder, not the working
        # directory, comes first on the path (run_path puts a folder or
        # zip there itself).
        sys.path[0] = os.path.dirname(os.path.abspath(path))
    runpy.run_path(path, run_name='__main__')


def _user_traceback(tb):
    """``tb`` without the frames of this runner and runpy, so a failing
    script prints the traceback ``python SCRIPT`` would."""
    ours = (globals(), vars(runpy))
    while tb is not None and any(tb.tb_frame.f_globals is g for g in ours):
        tb = tb.tb_next
    return tb


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in ('-c', '-m') and len(argv) < 2:
        print('Argument expected for the {} option\n{}'.format(argv[0], USAGE),
              file=sys.stderr)
        return 2
    if argv[0] not in ('-c', '-m') and not os.path.exists(argv[0]):
        print("chainer_core.compat: can't open file {!r}: No such file or "
              "directory".format(argv[0]), file=sys.stderr)
        return 2
    compat.install()
    try:
        if argv[0] == '-c':
            _run_code(argv[1], argv[2:])
        elif argv[0] == '-m':
            _run_module(argv[1], argv[2:])
        else:
            _run_script(argv[0], argv[1:])
    except Exception as e:
        tb = _user_traceback(e.__traceback__)
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
