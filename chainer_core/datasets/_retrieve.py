"""Fetching the source files of the bundled data sets."""
import hashlib
import os

from chainer_core.dataset import download


def get_dtype(dtype):
    """``dtype`` as a NumPy dtype (None: ``config.dtype``)."""
    from chainer_core.configuration import get_dtype
    return get_dtype(dtype)


def _cache_path(url):
    # Chainer's cache layout: <root>/_dl_cache/<md5 of the URL>.
    name = hashlib.md5(url.encode('utf-8'), usedforsecurity=False)
    return os.path.join(download.get_dataset_root(), '_dl_cache',
                        name.hexdigest())


def fetch(urls, md5):
    """The cached path of a file available at any of ``urls`` (tried in
    order, those already in the cache first), verified against its
    official MD5 checksum ``md5`` (None: not verified).

    Raises:
        OSError: no source could be used; the message names every URL (and
            the cache path where a copy fetched by hand would be used).
        ValueError: the only source gave a file that does not match its
            checksum.
    """
    if isinstance(urls, str):
        urls = (urls,)
    checksum = None if md5 is None else 'md5:' + md5
    cached = [url for url in urls if os.path.exists(_cache_path(url))]
    errors = []
    for url in cached + [url for url in urls if url not in cached]:
        try:
            return download.cached_download(url, checksum)
        except (OSError, ValueError) as e:
            # A source that is down or serves a damaged file: try the next.
            errors.append(e)
    if len(errors) == 1:
        raise errors[0]
    raise OSError('cannot download the file from any of its sources:\n' +
                  '\n'.join('- {}'.format(e) for e in errors)) from errors[-1]
