import io

import numpy
import PIL.Image
import pytest

from chainer_cv.utils import read_image, read_label, write_image


def _save(tmp_path, array, name, mode=None):
    path = str(tmp_path / name)
    PIL.Image.fromarray(array, mode=mode).save(path)
    return path


def _rgb(seed=0, shape=(6, 5, 3)):
    return numpy.random.RandomState(seed).randint(
        0, 256, size=shape).astype(numpy.uint8)


class TestReadImage:

    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8])
    @pytest.mark.parametrize('as_file', [False, True])
    def test_rgb(self, tmp_path, dtype, as_file):
        array = _rgb()
        path = _save(tmp_path, array, 'a.png')
        if as_file:
            with open(path, 'rb') as f:
                img = read_image(f, dtype=dtype)
        else:
            img = read_image(path, dtype=dtype)
        assert img.dtype == dtype and img.shape == (3, 6, 5)
        numpy.testing.assert_array_equal(img, array.transpose(2, 0, 1))

    def test_grayscale(self, tmp_path):
        array = _rgb()[:, :, 0]
        path = _save(tmp_path, array, 'g.png')
        gray = read_image(path, color=False)
        assert gray.shape == (1, 6, 5)
        numpy.testing.assert_array_equal(gray[0], array)
        color = read_image(path)
        assert color.shape == (3, 6, 5)
        numpy.testing.assert_array_equal(color, numpy.stack([array] * 3))

    def test_color_false_on_rgb(self, tmp_path):
        path = _save(tmp_path, _rgb(), 'a.png')
        assert read_image(path, color=False).shape == (1, 6, 5)

    @pytest.mark.parametrize('alpha,expected', [
        ('ignore', [100, 50, 0]), ('blend_with_white', [177.5, 152.5, 127.5]),
        ('blend_with_black', [50, 25, 0])])
    def test_alpha(self, tmp_path, alpha, expected):
        rgba = numpy.zeros((2, 2, 4), numpy.uint8)
        rgba[:] = (100, 50, 0, 255)
        rgba[..., 3] = 255 // 2 + 1
        path = _save(tmp_path, rgba, 'a.png', mode='RGBA')
        img = read_image(path, alpha=alpha)
        assert img.shape == (3, 2, 2)
        numpy.testing.assert_allclose(img[:, 0, 0], expected, atol=0.6)

    def test_alpha_required(self, tmp_path):
        path = _save(tmp_path, numpy.zeros((2, 2, 4), numpy.uint8), 'a.png',
                     mode='RGBA')
        with pytest.raises(ValueError, match="read_image: .*a.png.* has an "
                           "alpha channel .*alpha='ignore'"):
            read_image(path)
        with pytest.raises(ValueError, match='alpha must be one of'):
            read_image(path, alpha='drop')

    def test_palette_transparency_reads_as_colour(self, tmp_path):
        img = PIL.Image.fromarray(numpy.zeros((2, 3), numpy.uint8), mode='P')
        img.putpalette([10, 20, 30] * 256)
        path = str(tmp_path / 'p.png')
        img.save(path, transparency=0)
        out = read_image(path)
        assert out.shape == (3, 2, 3) and out[:, 0, 0].tolist() == [10, 20, 30]

    @pytest.mark.parametrize('fmt', ['png', 'jpeg'])
    def test_truncated(self, tmp_path, fmt):
        path = str(tmp_path / ('t.' + fmt))
        PIL.Image.fromarray(_rgb(shape=(64, 64, 3))).save(path, format=fmt)
        data = open(path, 'rb').read()
        with open(path, 'wb') as f:
            f.write(data[:len(data) // 2])
        with pytest.raises(ValueError, match=r"read_image: cannot read an "
                           r"image from '.*t\.{}'".format(fmt)):
            read_image(path)

    def test_not_an_image(self, tmp_path):
        path = tmp_path / 'x.jpg'
        path.write_bytes(b'not an image at all')
        with pytest.raises(ValueError, match='read_image: cannot read'):
            read_image(str(path))
        with pytest.raises(ValueError, match='read_image: cannot read'):
            read_image(io.BytesIO(b''))

    def test_missing(self, tmp_path):
        with pytest.raises(FileNotFoundError):
            read_image(str(tmp_path / 'missing.png'))


class TestReadLabel:

    @pytest.mark.parametrize('dtype', [numpy.int32, numpy.uint8])
    def test_palette(self, tmp_path, dtype):
        label = numpy.random.RandomState(0).randint(
            0, 21, size=(7, 9)).astype(numpy.uint8)
        img = PIL.Image.fromarray(label, mode='P')
        img.putpalette(list(range(256)) * 3)
        path = str(tmp_path / 'l.png')
        img.save(path)
        out = read_label(path, dtype=dtype)
        assert out.dtype == dtype and out.shape == (7, 9)
        numpy.testing.assert_array_equal(out, label)

    def test_multichannel(self, tmp_path):
        array = _rgb()
        out = read_label(_save(tmp_path, array, 'c.png'))
        numpy.testing.assert_array_equal(out, array.transpose(2, 0, 1))

    def test_truncated(self, tmp_path):
        path = _save(tmp_path, _rgb(shape=(64, 64, 3)), 'l.png')
        data = open(path, 'rb').read()
        open(path, 'wb').write(data[:40])
        with pytest.raises(ValueError, match='read_label: cannot read'):
            read_label(path)


class TestWriteImage:

    @pytest.mark.parametrize('channels', [1, 3])
    @pytest.mark.parametrize('fmt', ['png', 'bmp'])
    def test_round_trip(self, tmp_path, channels, fmt):
        img = numpy.random.RandomState(0).randint(
            0, 256, size=(channels, 5, 7)).astype(numpy.float32)
        path = str(tmp_path / ('w.' + fmt))
        write_image(img, path)
        numpy.testing.assert_array_equal(
            read_image(path, color=channels == 3), img)

    def test_file_object_with_format(self, tmp_path):
        img = numpy.full((3, 4, 4), 200, numpy.float32)
        buffer = io.BytesIO()
        write_image(img, buffer, format='png')
        buffer.seek(0)
        numpy.testing.assert_array_equal(read_image(buffer), img)

    def test_clips(self, tmp_path):
        path = str(tmp_path / 'c.png')
        write_image(numpy.array([[[-5, 300.4]]], numpy.float32), path)
        numpy.testing.assert_array_equal(read_image(path, color=False),
                                         [[[0, 255]]])

    @pytest.mark.parametrize('shape,match', [
        ((4, 5, 3), 'looks HWC'), ((4, 5), 'channel axis'),
        ((2, 4, 5), '1 or 3 channels')])
    def test_bad_layout(self, tmp_path, shape, match):
        with pytest.raises(ValueError, match='write_image: img .*' + match):
            write_image(numpy.zeros(shape, numpy.float32),
                        str(tmp_path / 'x.png'))
