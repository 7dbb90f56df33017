"""Downloading and caching data sets (Chainer's ``chainer.dataset``
download functions).

Files live under the dataset root: ``$CHAINER_DATASET_ROOT`` if set,
otherwise ``~/.chainer/dataset``. Downloads are cached under
``<root>/_dl_cache`` by the MD5 of their URL, as Chainer does, so an
existing Chainer cache serves here too. Files appear in the cache only
complete (downloaded to a temporary file, then renamed), and processes
sharing a root take a file lock around the rename.
"""
import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request

_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT',
    os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))


def get_dataset_root():
    """The dataset root directory."""
    return _dataset_root


def set_dataset_root(path):
    """Set the dataset root directory (for this process).

    Args:
        path (str): the new root.
    """
    global _dataset_root
    _dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """The directory of a data set under the dataset root.

    Args:
        dataset_name (str): the data set's name (may contain ``/``).
        create_directory (bool): create the directory if it is missing.

    Returns:
        str: the path.
    """
    path = os.path.join(_dataset_root, dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def _file_lock(path):
    """An exclusive lock on ``path`` shared between processes."""
    with open(path, 'a+b') as f:
        if os.name == 'nt':
            import msvcrt
            f.seek(0)
            # LK_LOCK retries for 10 seconds, then raises: retry until it
            # succeeds, as another process may hold the lock for longer.
            while True:
                try:
                    msvcrt.locking(f.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    continue
            try:
                yield
            finally:
                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _parse_checksum(checksum):
    if ':' in checksum:
        algorithm, digest = checksum.split(':', 1)
    else:
        algorithm, digest = 'sha256', checksum
    algorithm = algorithm.lower()
    if algorithm not in hashlib.algorithms_available:
        raise ValueError('cached_download: unknown hash algorithm {!r} in '
                         'checksum {!r}'.format(algorithm, checksum))
    return algorithm, digest.lower()


def _file_digest(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def cached_download(url, checksum=None):
    """Download a file once and return the path of its cached copy.

    If the URL is in the cache, no download happens. Otherwise the file is
    downloaded under the dataset root (see :func:`set_dataset_root`) and
    stored in the cache.

    Args:
        url (str): where to download from (``http``, ``https``, ``ftp`` or
            ``file`` URL).
        checksum (str): when given, the expected digest of the file as
            ``'<algorithm>:<hex digest>'`` (any :mod:`hashlib` algorithm;
            a bare hex digest means SHA-256). A cached copy that does not
            match is downloaded again; a download that does not match
            raises :class:`ValueError` and is not cached.

    Returns:
        str: the path of the cached file.

    Raises:
        OSError: the download failed (offline, say), or the cache directory
            cannot be made; the message names the URL and the cache path
            where the file could be put by hand.
    """
    expected = None if checksum is None else _parse_checksum(checksum)
    cache_root = os.path.join(_dataset_root, '_dl_cache')
    os.makedirs(cache_root, exist_ok=True)
    lock_path = os.path.join(cache_root, '_dl_lock')
    url_hash = hashlib.md5(url.encode('utf-8'), usedforsecurity=False)
    cache_path = os.path.join(cache_root, url_hash.hexdigest())

    with _file_lock(lock_path):
        if os.path.exists(cache_path):
            if expected is None or \
                    _file_digest(cache_path, expected[0]) == expected[1]:
                return cache_path
            # A stale or foreign copy: fetch the file again below.
            os.remove(cache_path)

    temp_root = tempfile.mkdtemp(dir=cache_root)
    try:
        temp_path = os.path.join(temp_root, 'dl')
        sys.stderr.write('Downloading from {}...\n'.format(url))
        sys.stderr.flush()
        try:
            urllib.request.urlretrieve(url, temp_path)
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, 'reason', None) or e
            raise OSError(
                'cannot download {} ({}); the file is cached as {}: if this '
                'machine is offline, fetch the file elsewhere and put it '
                'there'.format(url, reason, cache_path)) from e
        if expected is not None:
            actual = _file_digest(temp_path, expected[0])
            if actual != expected[1]:
                raise ValueError(
                    'the file downloaded from {} has {} {} but {} was '
                    'expected; it is not cached'.format(
                        url, expected[0], actual, expected[1]))
        with _file_lock(lock_path):
            shutil.move(temp_path, cache_path)
    finally:
        shutil.rmtree(temp_root, ignore_errors=True)
    return cache_path


def cache_or_load_file(path, creator, loader):
    """Load a file, creating it first if it does not exist.

    ``creator(temp_path)`` writes the file to a temporary path and returns
    the loaded content; the file then moves to ``path`` (unless another
    process made it meanwhile). If ``path`` exists, ``loader(path)`` loads
    it.

    Args:
        path (str): the path of the file.
        creator (callable): makes the file and returns its content.
        loader (callable): loads the file and returns its content.

    Returns:
        What ``creator`` or ``loader`` returned.
    """
    if os.path.exists(path):
        return loader(path)

    os.makedirs(_dataset_root, exist_ok=True)
    lock_path = os.path.join(_dataset_root, '_create_lock')
    temp_root = tempfile.mkdtemp(dir=_dataset_root)
    try:
        temp_path = os.path.join(temp_root, os.path.basename(path))
        content = creator(temp_path)
        with _file_lock(lock_path):
            if not os.path.exists(path):
                directory = os.path.dirname(path)
                if directory:
                    os.makedirs(directory, exist_ok=True)
                shutil.move(temp_path, path)
    finally:
        shutil.rmtree(temp_root, ignore_errors=True)
    return content
