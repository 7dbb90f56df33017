"""Helpers of the loader tests: URLs and checksums of source files."""
import hashlib
import os
import pathlib


def file_url(folder):
    """The file:// URL of a folder, ending with a slash."""
    return pathlib.Path(folder).resolve().as_uri() + '/'


def md5_of(path):
    with open(path, 'rb') as f:
        return hashlib.md5(f.read()).hexdigest()


def cached_copy(root, url):
    """Where the download cache keeps the file of ``url``."""
    return os.path.join(str(root), '_dl_cache',
                        hashlib.md5(url.encode('utf-8')).hexdigest())
