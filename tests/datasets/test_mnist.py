"""get_mnist, get_fashion_mnist and get_kuzushiji_mnist on small IDX files
made here in the real format (gzip, big-endian headers)."""
import gzip
import os
import struct

import numpy
import pytest

import chainer_core
from chainer_core import datasets
from chainer_core.datasets import fashion_mnist, kuzushiji_mnist, mnist

from ._sources import cached_copy, file_url, md5_of

LOADERS = {
    'mnist': (mnist, datasets.get_mnist, 'mnist'),
    'fashion': (fashion_mnist, datasets.get_fashion_mnist, 'fashion-mnist'),
    'kuzushiji': (kuzushiji_mnist, datasets.get_kuzushiji_mnist,
                  'kuzushiji_mnist'),
}
N_TRAIN, N_TEST = 5, 3


def _write_idx(path, magic, array):
    header = struct.pack('>I', magic) + b''.join(
        struct.pack('>I', d) for d in array.shape)
    with gzip.open(path, 'wb') as f:
        f.write(header + array.astype(numpy.uint8).tobytes())


def make_sources(folder, seed=0):
    """Official-looking IDX files; returns the raw arrays per split."""
    rng = numpy.random.RandomState(seed)
    raw = {}
    for split, n in (('train', N_TRAIN), ('t10k', N_TEST)):
        images = rng.randint(0, 256, size=(n, 28, 28)).astype(numpy.uint8)
        images[0, 0, 0] = 255
        labels = rng.randint(0, 10, size=n).astype(numpy.uint8)
        _write_idx(os.path.join(folder, split + '-images-idx3-ubyte.gz'),
                   0x803, images)
        _write_idx(os.path.join(folder, split + '-labels-idx1-ubyte.gz'),
                   0x801, labels)
        raw[split] = images, labels
    return raw


def point_at(monkeypatch, module, folder, bases=None):
    """Make ``module`` download from ``folder`` with the files' real MD5s."""
    md5 = {name: md5_of(os.path.join(folder, name)) for name in module._MD5}
    monkeypatch.setattr(module, '_MD5', md5)
    monkeypatch.setattr(module, '_BASE_URLS',
                        tuple(bases or (file_url(folder),)))


@pytest.fixture(params=sorted(LOADERS))
def loader(request, monkeypatch, dataset_root, source_dir):
    module, function, directory = LOADERS[request.param]
    raw = make_sources(str(source_dir))
    point_at(monkeypatch, module, str(source_dir))
    return function, raw, dataset_root / 'pfnet' / 'chainer' / directory


def test_default_shapes_scaling_and_labels(loader):
    function, raw, _ = loader
    train, test = function()
    assert isinstance(train, datasets.TupleDataset)
    assert (len(train), len(test)) == (N_TRAIN, N_TEST)
    for dataset, split in ((train, 'train'), (test, 't10k')):
        images, labels = raw[split]
        for i in range(len(dataset)):
            x, t = dataset[i]
            assert x.shape == (784,)
            assert x.dtype == numpy.float32
            numpy.testing.assert_allclose(
                x, images[i].reshape(-1) / 255., rtol=1e-6)
            assert t.dtype == numpy.int32 and t == labels[i]
    assert train[0][0].max() == 1.


@pytest.mark.parametrize('ndim,rgb,shape', [
    (1, False, (784,)), (2, False, (28, 28)), (3, False, (1, 28, 28)),
    (3, True, (3, 28, 28)), (1, True, (784,))])
def test_ndim_and_rgb_format(loader, ndim, rgb, shape):
    function, raw, _ = loader
    train, _ = function(ndim=ndim, rgb_format=rgb)
    x, _ = train[1]
    assert x.shape == shape
    expected = raw['train'][0][1] / 255.
    for channel in x.reshape((-1, 28, 28)):
        numpy.testing.assert_allclose(channel, expected, rtol=1e-6)


def test_no_labels_dtype_and_scale(loader):
    function, raw, _ = loader
    train, test = function(withlabel=False, scale=3., dtype=numpy.float64,
                           ndim=2)
    assert isinstance(train, numpy.ndarray)
    assert train.shape == (N_TRAIN, 28, 28) and train.dtype == numpy.float64
    numpy.testing.assert_allclose(test, raw['t10k'][0] * 3. / 255.)
    assert train.max() == 3.


def test_config_dtype_and_label_dtype(loader):
    function, _, _ = loader
    with chainer_core.using_config('dtype', numpy.float16):
        train, _ = function(label_dtype=numpy.int64)
    assert train[0][0].dtype == numpy.float16
    assert train[0][1].dtype == numpy.int64


def test_bad_ndim(loader):
    function, _, _ = loader
    with pytest.raises(ValueError, match='ndim'):
        function(ndim=4)


def test_cache_layout_and_second_call_reads_it(loader, source_dir):
    function, raw, directory = loader
    function()
    for name, split in (('train.npz', 'train'), ('test.npz', 't10k')):
        with numpy.load(str(directory / name)) as cached:
            assert sorted(cached.files) == ['x', 'y']
            assert cached['x'].dtype == numpy.uint8
            numpy.testing.assert_array_equal(
                cached['x'], raw[split][0].reshape(-1, 784))
            numpy.testing.assert_array_equal(cached['y'], raw[split][1])
    # Without sources and download cache, the npz files still serve.
    for name in os.listdir(str(source_dir)):
        os.remove(str(source_dir / name))
    download_cache = directory.parent.parent.parent / '_dl_cache'
    for name in os.listdir(str(download_cache)):
        path = download_cache / name
        if path.is_file():
            os.remove(str(path))
    train, test = function(ndim=3)
    assert train[0][0].shape == (1, 28, 28) and len(test) == N_TEST


def test_downloads_are_cached_by_url(monkeypatch, dataset_root, source_dir):
    make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir))
    datasets.get_mnist()
    base = file_url(str(source_dir))
    for name in mnist._MD5:
        path = cached_copy(dataset_root, base + name)
        assert md5_of(path) == mnist._MD5[name]


def test_offline_error_names_url_and_cache_path(monkeypatch, dataset_root,
                                                source_dir):
    make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir),
             bases=['http://127.0.0.1:9/'])
    with pytest.raises(OSError) as info:
        datasets.get_mnist()
    message = str(info.value)
    url = 'http://127.0.0.1:9/train-images-idx3-ubyte.gz'
    assert url in message
    assert cached_copy(dataset_root, url) in message
    assert not (dataset_root / 'pfnet' / 'chainer' / 'mnist' /
                'train.npz').exists()


def test_falls_back_to_the_mirror(monkeypatch, dataset_root, source_dir):
    raw = make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir),
             bases=['http://127.0.0.1:9/', file_url(str(source_dir))])
    train, _ = datasets.get_mnist(ndim=2)
    numpy.testing.assert_allclose(train[2][0], raw['train'][0][2] / 255.,
                                  rtol=1e-6)


def test_a_mirror_with_damaged_files_is_skipped(monkeypatch, dataset_root,
                                                source_dir, tmp_path):
    raw = make_sources(str(source_dir))
    damaged = tmp_path / 'damaged'
    damaged.mkdir()
    make_sources(str(damaged), seed=1)
    point_at(monkeypatch, mnist, str(source_dir),
             bases=[file_url(str(damaged)), file_url(str(source_dir))])
    _, test = datasets.get_mnist(ndim=2)
    numpy.testing.assert_allclose(test[0][0], raw['t10k'][0][0] / 255.,
                                  rtol=1e-6)


def test_cached_sources_need_no_network(monkeypatch, dataset_root,
                                        source_dir, http_server):
    make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir), bases=[http_server.url])
    datasets.get_mnist()
    requests = http_server.requests
    assert len(requests) == 4
    for name in ('train.npz', 'test.npz'):
        os.remove(str(dataset_root / 'pfnet' / 'chainer' / 'mnist' / name))
    del requests[:]
    point_at(monkeypatch, mnist, str(source_dir),
             bases=['http://127.0.0.1:9/', http_server.url])
    train, _ = datasets.get_mnist()
    assert requests == [] and len(train) == N_TRAIN


def test_all_sources_down_lists_them(monkeypatch, dataset_root, source_dir):
    make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir),
             bases=['http://127.0.0.1:9/a/', 'http://127.0.0.1:9/b/'])
    with pytest.raises(OSError, match='any of its sources') as info:
        datasets.get_mnist()
    assert 'http://127.0.0.1:9/a/' in str(info.value)
    assert 'http://127.0.0.1:9/b/' in str(info.value)


def test_checksum_mismatch_is_an_error(monkeypatch, dataset_root,
                                       source_dir):
    make_sources(str(source_dir))
    point_at(monkeypatch, mnist, str(source_dir))
    wrong = dict(mnist._MD5)
    wrong['train-images-idx3-ubyte.gz'] = '0' * 32
    monkeypatch.setattr(mnist, '_MD5', wrong)
    with pytest.raises(ValueError, match='md5'):
        datasets.get_mnist()
    assert not (dataset_root / 'pfnet' / 'chainer' / 'mnist' /
                'train.npz').exists()


def test_over_http(monkeypatch, dataset_root, source_dir, http_server):
    raw = make_sources(str(source_dir))
    point_at(monkeypatch, fashion_mnist, str(source_dir),
             bases=[http_server.url])
    _, test = datasets.get_fashion_mnist(ndim=3)
    numpy.testing.assert_allclose(test[2][0][0], raw['t10k'][0][2] / 255.,
                                  rtol=1e-6)
    assert test[2][1] == raw['t10k'][1][2]


def test_not_an_idx_file(monkeypatch, dataset_root, source_dir):
    make_sources(str(source_dir))
    _write_idx(str(source_dir / 'train-images-idx3-ubyte.gz'), 0x801,
               numpy.zeros(5, numpy.uint8))
    point_at(monkeypatch, mnist, str(source_dir))
    with pytest.raises(ValueError, match='magic number'):
        datasets.get_mnist()


def test_images_and_labels_of_different_lengths(monkeypatch, dataset_root,
                                                source_dir):
    make_sources(str(source_dir))
    _write_idx(str(source_dir / 'train-labels-idx1-ubyte.gz'), 0x801,
               numpy.zeros(N_TRAIN + 1, numpy.uint8))
    point_at(monkeypatch, mnist, str(source_dir))
    with pytest.raises(ValueError, match='images and labels'):
        datasets.get_mnist()


def test_truncated_idx_file(monkeypatch, dataset_root, source_dir):
    make_sources(str(source_dir))
    path = str(source_dir / 't10k-images-idx3-ubyte.gz')
    with gzip.open(path, 'rb') as f:
        data = f.read()
    with gzip.open(path, 'wb') as f:
        f.write(data[:-10])
    point_at(monkeypatch, mnist, str(source_dir))
    with pytest.raises(ValueError, match='header announces'):
        datasets.get_mnist()


def test_official_sources():
    for module in (mnist, fashion_mnist, kuzushiji_mnist):
        assert sorted(module._MD5) == sorted(
            '{}-{}-idx{}-ubyte.gz'.format(split, kind, n)
            for split in ('train', 't10k')
            for kind, n in (('images', 3), ('labels', 1)))
        assert all(len(v) == 32 for v in module._MD5.values())
    assert mnist._BASE_URLS[0] == 'http://yann.lecun.com/exdb/mnist/'


def test_fashion_mnist_label_names():
    assert datasets.get_fashion_mnist_labels([0, 9, 3]) == [
        'T-shirt/top', 'Ankle boot', 'Dress']
    with pytest.raises(ValueError):
        datasets.get_fashion_mnist_labels([10])
    with pytest.raises(TypeError):
        datasets.get_fashion_mnist_labels((1,))


def test_kuzushiji_mnist_label_names():
    labels = datasets.get_kuzushiji_mnist_labels()
    assert len(labels) == 10
    assert labels[0] == ('o', '\u304a') and labels[9] == ('wo', '\u3092')
