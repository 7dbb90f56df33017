"""Dataset root, cached downloads (from file:// URLs and a local HTTP
server, never the internet) and cache_or_load_file."""
import hashlib
import http.server
import os
import threading

import pytest

import chainer_core as chainer
from chainer_core.dataset import download


@pytest.fixture
def root(tmp_path):
    saved = download.get_dataset_root()
    path = str(tmp_path / 'root')
    download.set_dataset_root(path)
    yield path
    download.set_dataset_root(saved)


@pytest.fixture
def source(tmp_path):
    path = tmp_path / 'source.bin'
    path.write_bytes(b'chainer-core dataset bytes')
    return path


@pytest.fixture
def server(tmp_path):
    """A local HTTP server for ``tmp_path / 'www'``, counting requests."""
    www = tmp_path / 'www'
    www.mkdir()
    (www / 'data.txt').write_bytes(b'served data')
    hits = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(www), **kwargs)

        def do_GET(self):
            hits.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield 'http://127.0.0.1:{}'.format(httpd.server_address[1]), hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_dataset_root_and_directory(root):
    assert download.get_dataset_root() == root
    path = download.get_dataset_directory('pfnet/mnist')
    assert path == os.path.join(root, 'pfnet/mnist')
    assert os.path.isdir(path)
    other = download.get_dataset_directory('x', create_directory=False)
    assert not os.path.exists(other)


def test_default_root_comes_from_the_environment(tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(tmp_path / 'env-root'))
    out = subprocess.run(
        [sys.executable, '-c', 'from chainer_core.dataset import download; '
         'print(download.get_dataset_root())'],
        env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path / 'env-root')


def test_cached_download_from_a_file_url(root, source, capsys):
    url = source.as_uri()
    path = download.cached_download(url)
    assert 'Downloading from {}'.format(url) in capsys.readouterr().err
    expected = os.path.join(root, '_dl_cache',
                            hashlib.md5(url.encode()).hexdigest())
    assert path == expected
    with open(path, 'rb') as f:
        assert f.read() == source.read_bytes()
    source.write_bytes(b'changed')
    assert download.cached_download(url) == path
    assert capsys.readouterr().err == ''
    with open(path, 'rb') as f:
        assert f.read() == b'chainer-core dataset bytes'


def test_cached_download_from_a_local_http_server(root, server):
    base, hits = server
    url = base + '/data.txt'
    path = download.cached_download(url)
    with open(path, 'rb') as f:
        assert f.read() == b'served data'
    download.cached_download(url)
    assert hits == ['/data.txt']


def test_checksums(root, source):
    data = source.read_bytes()
    sha256 = hashlib.sha256(data).hexdigest()
    md5 = hashlib.md5(data).hexdigest()
    url = source.as_uri()
    path = download.cached_download(url, checksum=sha256)
    assert download.cached_download(url, checksum='md5:' + md5) == path
    assert download.cached_download(
        url, checksum='SHA256:' + sha256.upper()) == path
    with pytest.raises(ValueError, match='unknown hash algorithm'):
        download.cached_download(url, checksum='nohash:00')


def test_checksum_mismatch_is_not_cached(root, source):
    url = source.as_uri()
    with pytest.raises(ValueError, match='expected; it is not cached'):
        download.cached_download(url, checksum='sha256:' + '0' * 64)
    cache = os.path.join(root, '_dl_cache')
    assert sorted(os.listdir(cache)) == ['_dl_lock']


def test_a_cached_copy_with_a_wrong_checksum_is_fetched_again(root, source):
    url = source.as_uri()
    path = download.cached_download(url)
    with open(path, 'wb') as f:
        f.write(b'corrupted')
    good = hashlib.sha256(source.read_bytes()).hexdigest()
    assert download.cached_download(url, checksum=good) == path
    with open(path, 'rb') as f:
        assert f.read() == source.read_bytes()


def test_failed_download_names_the_url_and_the_cache_path(root, server):
    base, _ = server
    url = base + '/missing.txt'
    with pytest.raises(OSError) as info:
        download.cached_download(url)
    message = str(info.value)
    assert url in message
    assert os.path.join(root, '_dl_cache') in message
    assert os.listdir(os.path.join(root, '_dl_cache')) == ['_dl_lock']


def test_unreachable_host_is_an_oserror(root):
    # Port 9 on the loopback refuses connections: no network is used.
    with pytest.raises(OSError, match='cannot download'):
        download.cached_download('http://127.0.0.1:9/file.bin')


def test_cache_or_load_file(root):
    path = os.path.join(root, 'sub', 'data.txt')
    created = []

    def creator(temp_path):
        created.append(temp_path)
        with open(temp_path, 'w') as f:
            f.write('made')
        return 'created'

    def loader(p):
        with open(p) as f:
            return 'loaded ' + f.read()

    assert download.cache_or_load_file(path, creator, loader) == 'created'
    assert created[0] != path and not os.path.exists(created[0])
    with open(path) as f:
        assert f.read() == 'made'
    assert download.cache_or_load_file(path, creator, loader) == \
        'loaded made'
    assert len(created) == 1


def test_cache_or_load_file_leaves_nothing_when_the_creator_fails(root):
    path = os.path.join(root, 'data.txt')

    def creator(temp_path):
        with open(temp_path, 'w') as f:
            f.write('partial')
        raise RuntimeError('creator failed')

    with pytest.raises(RuntimeError):
        download.cache_or_load_file(path, creator, None)
    assert not os.path.exists(path)
    assert sorted(os.listdir(root)) == []


def test_exported_from_chainer_core_dataset():
    for name in ('get_dataset_root', 'set_dataset_root',
                 'get_dataset_directory', 'cached_download',
                 'cache_or_load_file'):
        assert getattr(chainer.dataset, name) is getattr(download, name)
