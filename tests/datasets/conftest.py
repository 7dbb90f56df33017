"""A dataset root of its own for each test, and source files served from
a folder by file:// URLs or by a local HTTP server."""
import functools
import http.server
import threading

import pytest

from chainer_core.dataset import download


@pytest.fixture
def dataset_root(tmp_path):
    root = tmp_path / 'dataset_root'
    previous = download.get_dataset_root()
    download.set_dataset_root(str(root))
    try:
        yield root
    finally:
        download.set_dataset_root(previous)


@pytest.fixture
def source_dir(tmp_path):
    folder = tmp_path / 'source'
    folder.mkdir()
    return folder


class _Server:
    def __init__(self, url, requests):
        self.url = url
        self.requests = requests


@pytest.fixture
def http_server(source_dir):
    """Serves ``source_dir`` on 127.0.0.1: ``.url`` is the base URL,
    ``.requests`` the paths asked for."""
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            requests.append(self.path)
            super().do_GET()

    handler = functools.partial(Handler, directory=str(source_dir))
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,),
                              daemon=True)
    thread.start()
    try:
        yield _Server('http://127.0.0.1:{}/'.format(server.server_address[1]),
                      requests)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
