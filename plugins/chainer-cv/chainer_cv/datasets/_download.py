"""Downloading and unpacking data sets under the dataset root, as ChainerCV
lays them out (``$CHAINER_DATASET_ROOT/pfnet/chainercv/<name>``)."""
import os
import shutil
import tarfile
import tempfile
import zipfile

from chainer_core.dataset import download


def _extract(archive, directory):
    if tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tar:
            # The 'data' filter refuses absolute paths, '..', links out of
            # the directory and device files.
            tar.extractall(directory, filter='data')
    elif zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zip_file:
            for name in zip_file.namelist():
                parts = name.replace('\\', '/').split('/')
                if name.startswith('/') or '..' in parts or ':' in parts[0]:
                    raise ValueError('the archive {} has a member leading out '
                                     'of its directory: {!r}'
                                     .format(archive, name))
            zip_file.extractall(directory)
    else:
        raise ValueError('{} is neither a tar nor a zip archive'
                         .format(archive))


def get_dataset(name, urls, expected):
    """Make sure a data set is unpacked under the dataset root.

    Args:
        name (str): the directory under the root, e.g.
            ``'pfnet/chainercv/voc'``.
        urls (list of str): archives to download and unpack there, when
            ``expected`` is missing.
        expected (str): a path relative to the directory whose presence
            shows that the data set is there.

    Returns:
        str: the directory of the data set.
    """
    root = download.get_dataset_directory(name)
    if os.path.exists(os.path.join(root, expected)):
        return root
    for url in urls:
        archive = download.cached_download(url)
        # Unpack aside, then move entries in, so that a concurrent or
        # interrupted run never sees half a data set.
        temp = tempfile.mkdtemp(dir=root)
        try:
            _extract(archive, temp)
            _merge(temp, root)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
    return root


def _merge(source, target):
    for entry in os.listdir(source):
        src = os.path.join(source, entry)
        dst = os.path.join(target, entry)
        if not os.path.exists(dst):
            os.replace(src, dst)
        elif os.path.isdir(src) and os.path.isdir(dst):
            _merge(src, dst)
