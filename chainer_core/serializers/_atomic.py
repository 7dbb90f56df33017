"""Atomic file replacement shared by the savers."""
import os
import secrets


def _create_temp(folder, name):
    # O_EXCL with mode 0o666 instead of tempfile.mkstemp: the new file gets
    # the permissions a plain open() would give it (umask applies), where
    # mkstemp would make every saved model private to its owner.
    while True:
        tmp = os.path.join(folder, '.tmp-{}-{}'.format(
            name, secrets.token_hex(6)))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp


def write_atomic(path, write):
    """Make the file ``path`` by ``write(tmp)`` on a temporary path of the
    same folder, then rename it over ``path``: readers, and a crash or an
    error while writing, see the old content or the new one, never a mix,
    and no temporary file is left behind."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    tmp = _create_temp(folder, os.path.basename(path))
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except FileNotFoundError:
            pass
        raise
