import numpy
import pytest

from chainer_cv import transforms, utils

from ._helpers import assert_inside, random_bbox, random_image


def _annotations(seed=0):
    img = random_image((3, 24, 32), seed)
    bbox = random_bbox((24, 32), n=6, seed=seed)
    mask = numpy.zeros((6, 24, 32), bool)
    for m, (y0, x0, y1, x1) in zip(mask, bbox.astype(int)):
        m[y0:y1, x0:x1] = True
    bbox = utils.mask_to_bbox(mask)
    point = numpy.random.RandomState(seed).uniform(
        0, 24, size=(6, 3, 2)).astype(numpy.float32)
    return img, bbox, point, mask


def _replay(img, bbox, point, mask, param, fill):
    """The same change by the deterministic transforms."""
    if 'expand' in param:
        p = param['expand']
        y, x = p['y_offset'], p['x_offset']
        H, W = int(img.shape[1] * p['ratio']), int(img.shape[2] * p['ratio'])
        canvas = numpy.empty((3, H, W), numpy.float32)
        canvas[:] = numpy.reshape(fill, (-1, 1, 1))
        canvas[:, y:y + img.shape[1], x:x + img.shape[2]] = img
        mask_canvas = numpy.zeros((len(mask), H, W), bool)
        mask_canvas[:, y:y + img.shape[1], x:x + img.shape[2]] = mask
        img, mask = canvas, mask_canvas
        bbox = transforms.translate_bbox(bbox, y, x)
        point = transforms.translate_point(point, y, x)
    if 'crop' in param:
        p = param['crop']
        img = img[:, p['y_slice'], p['x_slice']]
        bbox, kept = transforms.crop_bbox(bbox, p['y_slice'], p['x_slice'],
                                          return_param=True)
        assert kept['index'].tolist() == p['index'].tolist()
        mask = mask[p['index']][:, p['y_slice'], p['x_slice']]
        point = transforms.translate_point(point, -p['y_slice'].start,
                                           -p['x_slice'].start)
    if 'flip' in param:
        p = param['flip']
        size = img.shape[1:]
        img = transforms.flip(img, **p)
        mask = transforms.flip(mask, **p)
        bbox = transforms.flip_bbox(bbox, size, **p)
        point = transforms.flip_point(point, size, **p)
    return img, bbox, point, mask


class TestRandomTransform:

    @pytest.mark.parametrize('expand', [None, 2])
    @pytest.mark.parametrize('crop', [None, (16, 20), {},
                                      {'scale_ratio_range': (0.3, 1)}])
    @pytest.mark.parametrize('flip', [None, 'x', 'xy'])
    @pytest.mark.parametrize('seed', [0, 1])
    def test_param_reproduces(self, expand, crop, flip, seed):
        img, bbox, point, mask = _annotations(seed)
        fill = (1, 2, 3)
        out, param = transforms.random_transform(
            img, bbox=bbox, point=point, mask=mask, expand=expand, crop=crop,
            flip=flip, fill=fill, return_param=True)
        assert set(param) == {name for name, value in (
            ('expand', expand), ('crop', crop), ('flip', flip))
            if value is not None}
        expected = _replay(img, bbox, point, mask, param, fill)
        for value, replayed in zip(out, expected):
            numpy.testing.assert_allclose(value, replayed, atol=1e-4)
        assert_inside(out.bbox, out.img.shape[1:])
        assert out.mask.shape == (len(out.bbox),) + out.img.shape[1:]
        # Masks and boxes stay aligned: each box still bounds its mask.
        shown = out.mask.any(axis=(1, 2))
        numpy.testing.assert_allclose(
            utils.mask_to_bbox(out.mask)[shown], out.bbox[shown], atol=1e-4)

    def test_only_image(self):
        out = transforms.random_transform(random_image(), crop=(8, 8),
                                          flip='y')
        assert out.img.shape == (3, 8, 8)
        assert out.bbox is None and out.point is None and out.mask is None

    def test_bad_input(self):
        with pytest.raises(ValueError, match="random_transform: flip must be"):
            transforms.random_transform(random_image(), flip='horizontal')
        with pytest.raises(ValueError, match=r'random_transform: mask must '
                           r'have shape \(R, 24, 32\)'):
            transforms.random_transform(random_image(),
                                        mask=numpy.zeros((1, 4, 4), bool))
        with pytest.raises(ValueError, match='random_transform: bbox'):
            transforms.random_transform(random_image(),
                                        bbox=numpy.zeros((2, 3)))
