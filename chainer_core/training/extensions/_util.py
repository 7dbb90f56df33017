"""Helpers shared by the extensions that write files."""
import os
import tempfile


def _umask():
    umask = os.umask(0)
    os.umask(umask)
    return umask


def replace_atomic(path, write, binary=False):
    """Write ``path`` through ``write(file)`` into a temporary file of the
    same folder renamed over ``path`` at the end: readers (and a crash)
    see the old or the new content, never a mix."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.tmp-', dir=folder)
    try:
        with os.fdopen(fd, 'wb' if binary else 'w') as f:
            write(f)
        # mkstemp makes the file private; give it the usual permissions.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
