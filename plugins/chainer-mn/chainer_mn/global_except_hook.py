"""Abort the whole MPI job when one process fails, instead of hanging.

When one process of an MPI job dies of an unhandled exception, the others
wait forever in their next collective call (and the dying process itself
waits in ``MPI_Finalize``). :func:`add_hook`, which
:func:`~chainer_mn.create_communicator` calls, prevents that:

* ``sys.excepthook``: an unhandled exception (KeyboardInterrupt included)
  prints its traceback, prefixed with the rank, and calls
  ``MPI.COMM_WORLD.Abort(1)``; the launcher (``mpiexec``) then ends every
  process and exits with a non-zero status.
* ``sys.exit(status)`` with a non-zero status: the process goes through the
  usual clean-up (``finally`` blocks, ``with`` exits, ``atexit``) and
  then aborts the job with that status. A ``SystemExit`` caught by the
  program (and not re-raised) still aborts the job at exit; call
  :func:`clear_exit_status` after catching one to continue normally.

A process killed by a signal is handled by the launcher itself (MPICH's
Hydra and Open MPI end the job). Exceptions in threads other than the
main thread are not covered. In a single-process job (``mpiexec -n 1`` or
no launcher) nothing is installed: there is no one to wait.

Opt out with ``chainer_core.global_config.mn_abort_on_exception = False``
before creating the communicator, or :func:`remove_hook`.
"""
import atexit
import sys
import time
import traceback

from chainer_mn import _mpi

_state = {
    'installed': False,
    'excepthook': None,
    'exit': None,
    'exit_status': 0,
    'atexit_registered': False,
}


# How long an aborting process waits after flushing its output: the
# launcher ends the job as soon as MPI_Abort reaches it, and output still
# in the pipe to it may be dropped rather than forwarded.
_FORWARD_GRACE_S = 0.2


def _abort(status):
    MPI = _mpi.get_mpi()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    time.sleep(_FORWARD_GRACE_S)
    MPI.COMM_WORLD.Abort(status)


def _excepthook(exc_type, exc_value, tb):
    MPI = _mpi.get_mpi()
    try:
        world = MPI.COMM_WORLD
        header = ('chainer_mn: unhandled {} on rank {} of {}; aborting the '
                  'MPI job\n'.format(exc_type.__name__, world.Get_rank(),
                                     world.Get_size()))
        previous = _state['excepthook']
        if previous is None or previous is sys.__excepthook__:
            # One write: the launcher forwards while the job is torn down,
            # and a traceback printed line by line could be cut midway.
            sys.stderr.write(header + ''.join(traceback.format_exception(
                exc_type, exc_value, tb)))
        else:
            sys.stderr.write(header)
            previous(exc_type, exc_value, tb)
    finally:
        _abort(1)


def _status_of(code):
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code
    return 1


def _exit(status=None):
    code = _status_of(status)
    if code != 0:
        _state['exit_status'] = code
    _state['exit'](status)


def _at_exit():
    if _state['installed'] and _state['exit_status']:
        _abort(_state['exit_status'])


def add_hook():
    """Install the hooks (once; no-op in a single-process job)."""
    if _state['installed']:
        return
    MPI = _mpi.get_mpi()
    if MPI.COMM_WORLD.Get_size() == 1:
        return
    _state['excepthook'] = sys.excepthook
    _state['exit'] = sys.exit
    sys.excepthook = _excepthook
    sys.exit = _exit
    if not _state['atexit_registered']:
        # Registered after mpi4py.MPI was imported, so it runs before
        # MPI is finalized at exit.
        atexit.register(_at_exit)
        _state['atexit_registered'] = True
    _state['installed'] = True


def remove_hook():
    """Restore ``sys.excepthook`` and ``sys.exit``."""
    if not _state['installed']:
        return
    if sys.excepthook is _excepthook:
        sys.excepthook = _state['excepthook']
    if sys.exit is _exit:
        sys.exit = _state['exit']
    _state['installed'] = False
    _state['exit_status'] = 0


def clear_exit_status():
    """Forget a non-zero ``sys.exit`` status (after catching its
    ``SystemExit``), so that the job is not aborted at exit."""
    _state['exit_status'] = 0


def is_installed():
    """Whether the hooks are installed."""
    return _state['installed']
