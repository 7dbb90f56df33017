"""ImageDataset, LabeledImageDataset and the zip-archive datasets on PNG,
JPEG and .npy files made here."""
import os
import pickle
import sys
import zipfile

import numpy
import pytest

import chainer_core
from chainer_core import datasets, iterators


@pytest.fixture
def pil():
    return pytest.importorskip('PIL.Image')


def _pixels(seed, shape):
    return numpy.random.RandomState(seed).randint(
        0, 256, size=shape).astype(numpy.uint8)


@pytest.fixture
def images(tmp_path, pil):
    """name -> the uint8 HWC (or HW) pixels written under tmp_path/img."""
    folder = tmp_path / 'img'
    (folder / 'sub').mkdir(parents=True)
    made = {
        'rgb.png': _pixels(0, (5, 4, 3)),
        'grey.png': _pixels(1, (5, 4)),
        'rgba.png': _pixels(2, (5, 4, 4)),
        'sub/more.png': _pixels(3, (5, 4, 3)),
    }
    for name, pixels in made.items():
        pil.fromarray(pixels).save(str(folder / name))
    numpy.save(str(folder / 'array.npy'), _pixels(4, (5, 4, 3)))
    made['array.npy'] = _pixels(4, (5, 4, 3))
    numpy.save(str(folder / 'flat.npy'), _pixels(5, (5, 4)))
    made['flat.npy'] = _pixels(5, (5, 4))
    return folder, made


def _chw(pixels):
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    return pixels.transpose(2, 0, 1)


def test_image_dataset_from_a_list(images):
    folder, made = images
    names = sorted(made)
    dataset = datasets.ImageDataset(names, root=str(folder))
    assert len(dataset) == len(names)
    for i, name in enumerate(names):
        image = dataset[i]
        assert image.dtype == numpy.float32
        numpy.testing.assert_array_equal(image, _chw(made[name]))
    assert dataset[names.index('grey.png')].shape == (1, 5, 4)
    assert dataset[names.index('rgba.png')].shape == (4, 5, 4)


def test_image_dataset_from_a_file_dtype_and_config(images, tmp_path):
    folder, made = images
    listing = tmp_path / 'list.txt'
    listing.write_text('rgb.png\nsub/more.png\n\n')
    dataset = datasets.ImageDataset(str(listing), root=str(folder),
                                    dtype=numpy.uint8)
    assert len(dataset) == 2
    assert dataset[1].dtype == numpy.uint8
    numpy.testing.assert_array_equal(dataset[1], _chw(made['sub/more.png']))
    with chainer_core.using_config('dtype', numpy.float64):
        assert datasets.ImageDataset(['rgb.png'],
                                     root=str(folder))[0].dtype == \
            numpy.float64


def test_jpeg(tmp_path, pil):
    pixels = numpy.full((8, 8, 3), 100, dtype=numpy.uint8)
    pil.fromarray(pixels).save(str(tmp_path / 'a.jpg'), quality=95)
    image = datasets.ImageDataset(['a.jpg'], root=str(tmp_path))[0]
    assert image.shape == (3, 8, 8)
    numpy.testing.assert_allclose(image, 100, atol=3)


def test_npy_of_bad_shape(tmp_path):
    numpy.save(str(tmp_path / 'v.npy'), numpy.zeros(3))
    with pytest.raises(ValueError, match='shape'):
        datasets.ImageDataset(['v.npy'], root=str(tmp_path))[0]


def test_labeled_image_dataset(images, tmp_path):
    folder, made = images
    pairs = [('rgb.png', 3), ('sub/more.png', 0), ('array.npy', 7)]
    for source in (pairs, None):
        if source is None:
            listing = tmp_path / 'pairs.txt'
            listing.write_text(''.join('{} {}\n'.format(p, t)
                                       for p, t in pairs))
            source = str(listing)
        dataset = datasets.LabeledImageDataset(source, root=str(folder),
                                               label_dtype=numpy.int64)
        assert len(dataset) == 3
        for i, (name, label) in enumerate(pairs):
            image, t = dataset[i]
            numpy.testing.assert_array_equal(image, _chw(made[name]))
            assert t.dtype == numpy.int64 and t.shape == () and t == label


def test_labeled_image_dataset_bad_line(tmp_path):
    listing = tmp_path / 'pairs.txt'
    listing.write_text('a.png 1\nb.png one\n')
    with pytest.raises(ValueError, match='line 2'):
        datasets.LabeledImageDataset(str(listing))


def test_labeled_image_dataset_path_with_spaces(tmp_path, pil):
    pixels = _pixels(6, (2, 3, 3))
    pil.fromarray(pixels).save(str(tmp_path / 'my image.png'))
    listing = tmp_path / 'pairs.txt'
    listing.write_text('my image.png 4\n')
    image, label = datasets.LabeledImageDataset(str(listing),
                                                root=str(tmp_path))[0]
    numpy.testing.assert_array_equal(image, _chw(pixels))
    assert label == 4


def test_npy_without_pillow(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'PIL', None)
    pixels = _pixels(7, (3, 2, 3))
    numpy.save(str(tmp_path / 'a.npy'), pixels)
    (tmp_path / 'b.png').write_bytes(b'not read')
    dataset = datasets.ImageDataset(['a.npy', 'b.png'], root=str(tmp_path))
    numpy.testing.assert_array_equal(dataset[0], _chw(pixels))
    with pytest.raises(ImportError, match='pip install Pillow'):
        dataset[1]


def test_missing_file(tmp_path, pil):
    with pytest.raises(OSError):
        datasets.ImageDataset(['none.png'], root=str(tmp_path))[0]


def _zip(path, folder, names):
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('dir/', '')
        for name in names:
            archive.write(os.path.join(folder, name), name)
    return path


def test_zipped_image_dataset(images, tmp_path):
    folder, made = images
    names = ['rgb.png', 'sub/more.png', 'array.npy']
    path = _zip(str(tmp_path / 'a.zip'), str(folder), names)
    dataset = datasets.ZippedImageDataset(path)
    assert len(dataset) == 3
    for i, name in enumerate(names):
        numpy.testing.assert_array_equal(dataset[i], _chw(made[name]))
        numpy.testing.assert_array_equal(dataset.get_example(name),
                                         _chw(made[name]))
    copy = pickle.loads(pickle.dumps(dataset))
    numpy.testing.assert_array_equal(copy[1], _chw(made['sub/more.png']))


def test_labeled_and_multi_zipped(images, tmp_path):
    folder, made = images
    first = _zip(str(tmp_path / 'a.zip'), str(folder), ['rgb.png', 'grey.png'])
    second = _zip(str(tmp_path / 'b.zip'), str(folder),
                  ['rgba.png', 'sub/more.png', 'flat.npy'])
    labels = tmp_path / 'labels.txt'
    labels.write_text('grey.png 2\nrgb.png 5\n')
    labeled = datasets.LabeledZippedImageDataset(first, str(labels),
                                                 dtype=numpy.float64)
    image, t = labeled[0]
    assert image.dtype == numpy.float64 and t == 2
    numpy.testing.assert_array_equal(image, _chw(made['grey.png']))
    assert labeled[1][1] == 5 and len(labeled) == 2

    multi = datasets.MultiZippedImageDataset([first, second])
    order = ['rgb.png', 'grey.png', 'rgba.png', 'sub/more.png', 'flat.npy']
    assert len(multi) == 5
    for i, name in enumerate(order):
        numpy.testing.assert_array_equal(multi[i], _chw(made[name]))
    numpy.testing.assert_array_equal(multi[-1], _chw(made['flat.npy']))


def test_zipped_images_in_worker_processes(images, tmp_path):
    folder, made = images
    names = sorted(made)
    path = _zip(str(tmp_path / 'a.zip'), str(folder), names)
    dataset = datasets.ZippedImageDataset(path, dtype=numpy.uint8)
    dataset[0]
    it = iterators.MultiprocessIterator(dataset, 2, n_processes=2,
                                        repeat=False, shuffle=False)
    try:
        got = sum(list(it), [])
    finally:
        it.finalize()
    for image, name in zip(got, names):
        numpy.testing.assert_array_equal(image, _chw(made[name]))
