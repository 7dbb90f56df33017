import io
import tarfile

import pytest

from chainer_core.dataset import download
from chainer_cv.datasets import _download


def _tar(path, members):
    with tarfile.open(path, 'w') as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path.as_uri()


@pytest.fixture
def dataset_root(tmp_path):
    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path / 'root'))
    yield tmp_path / 'root'
    download.set_dataset_root(old)


def test_get_dataset_unpacks_once(tmp_path, dataset_root):
    url = _tar(tmp_path / 'a.tar', {'base/list.txt': b'x\n'})
    root = _download.get_dataset('pfnet/chainercv/test', [url],
                                 'base/list.txt')
    assert (dataset_root / 'pfnet/chainercv/test/base/list.txt').read_bytes(
    ) == b'x\n'
    (tmp_path / 'a.tar').unlink()
    # Present already: nothing is fetched again.
    assert _download.get_dataset('pfnet/chainercv/test', [url],
                                 'base/list.txt') == root


def test_get_dataset_refuses_escaping_member(tmp_path, dataset_root):
    url = _tar(tmp_path / 'evil.tar', {'../../evil.txt': b'x'})
    with pytest.raises(tarfile.OutsideDestinationError):
        _download.get_dataset('pfnet/chainercv/evil', [url], 'base')
    assert not (dataset_root / 'evil.txt').exists()
