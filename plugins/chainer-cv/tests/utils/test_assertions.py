import numpy
import pytest

from chainer_cv.utils import testing


def _img(H=8, W=10, C=3):
    return numpy.random.RandomState(0).uniform(
        0, 255, size=(C, H, W)).astype(numpy.float32)


_BBOX = numpy.array([[0, 0, 4, 5], [1, 2, 8, 10]], numpy.float32)
_LABEL = numpy.array([0, 2], numpy.int32)


class TestAssertIsImage:

    @pytest.mark.parametrize('img,kwargs', [
        (_img(), {}), (_img(C=1), {'color': False}),
        (_img() * 2, {'check_range': False})])
    def test_valid(self, img, kwargs):
        testing.assert_is_image(img, **kwargs)

    @pytest.mark.parametrize('img,kwargs,match', [
        (_img().transpose(1, 2, 0), {}, '3 channels'),
        (_img(C=1), {}, '3 channels'), (_img()[0], {}, '3 axes'),
        (_img() + 300, {}, r'\[0, 255\]'), ([1, 2], {}, 'numpy.ndarray')])
    def test_invalid(self, img, kwargs, match):
        with pytest.raises(AssertionError, match=match):
            testing.assert_is_image(img, **kwargs)


class TestAssertIsBBox:

    def test_valid(self):
        testing.assert_is_bbox(_BBOX, (8, 10))
        testing.assert_is_bbox(numpy.zeros((0, 4), numpy.float32))

    @pytest.mark.parametrize('bbox,size,match', [
        (_BBOX.astype(numpy.float64), None, 'float32'),
        (_BBOX[:, :3], None, r'\(R, 4\)'),
        (_BBOX[:, ::-1].copy(), None, 'y_min <= y_max'),
        (_BBOX, (7, 10), 'inside an image')])
    def test_invalid(self, bbox, size, match):
        with pytest.raises(AssertionError, match=match):
            testing.assert_is_bbox(bbox, size)


class TestAssertIsPoint:

    def test_valid(self):
        point = numpy.array([[[1, 1], [20, 20]]], numpy.float32)
        testing.assert_is_point(point, numpy.array([[True, False]]), (8, 8),
                                n_point=2)

    @pytest.mark.parametrize('visible,size,n_point,match', [
        (None, (8, 8), None, 'inside'), (None, None, 3, '3 points'),
        (numpy.array([[True]]), None, None, 'visible must have shape')])
    def test_invalid(self, visible, size, n_point, match):
        point = numpy.array([[[1, 1], [20, 20]]], numpy.float32)
        with pytest.raises(AssertionError, match=match):
            testing.assert_is_point(point, visible, size, n_point)


class TestAssertIsDatasets:

    @pytest.mark.parametrize('check,example,args', [
        (testing.assert_is_label_dataset, (_img(), numpy.int32(3)), (5,)),
        (testing.assert_is_bbox_dataset, (_img(), _BBOX, _LABEL), (3,)),
        (testing.assert_is_semantic_segmentation_dataset,
         (_img(), numpy.full((8, 10), -1, numpy.int32)), (3,)),
        (testing.assert_is_instance_segmentation_dataset,
         (_img(), numpy.zeros((2, 8, 10), bool), _LABEL), (3,)),
        (testing.assert_is_point_dataset,
         (_img(), numpy.ones((1, 4, 2), numpy.float32),
          numpy.ones((1, 4), bool)), (4,))])
    @pytest.mark.parametrize('n_example', [None, 2])
    def test_valid(self, check, example, args, n_example):
        check([example] * 3, *args, n_example=n_example)

    @pytest.mark.parametrize('check,example,args,match', [
        (testing.assert_is_label_dataset, (_img(), 3), (5,), 'numpy.int32'),
        (testing.assert_is_label_dataset, (_img(), numpy.int32(5)), (5,),
         r'\[0, 5\)'),
        (testing.assert_is_bbox_dataset, (_img(), _BBOX, _LABEL), (2,),
         r'\[0, 2\)'),
        (testing.assert_is_bbox_dataset, (_img(),), (2,), 'starting with'),
        (testing.assert_is_semantic_segmentation_dataset,
         (_img(), numpy.zeros((8, 9), numpy.int32)), (3,), 'shape'),
        (testing.assert_is_instance_segmentation_dataset,
         (_img(), numpy.zeros((2, 8, 10), numpy.uint8), _LABEL), (3,),
         'bool')])
    def test_invalid(self, check, example, args, match):
        with pytest.raises(AssertionError, match=match):
            check([example], *args)


class _Model:
    def __init__(self, kind, n):
        self.kind, self.n = kind, n

    def predict(self, imgs):
        if self.kind == 'semantic':
            return [numpy.full(img.shape[1:], self.n - 1, numpy.int32)
                    for img in imgs]
        labels = [numpy.array([0, self.n - 1], numpy.int32) for _ in imgs]
        scores = [numpy.array([0.9, 0.1], numpy.float32) for _ in imgs]
        if self.kind == 'detection':
            return [_BBOX] * len(imgs), labels, scores
        return ([numpy.zeros((2,) + img.shape[1:], bool) for img in imgs],
                labels, scores)


class TestAssertIsLinks:

    @pytest.mark.parametrize('check,kind', [
        (testing.assert_is_detection_link, 'detection'),
        (testing.assert_is_instance_segmentation_link, 'instance'),
        (testing.assert_is_semantic_segmentation_link, 'semantic')])
    def test_valid_and_invalid(self, check, kind):
        check(_Model(kind, 3), 3)
        with pytest.raises(AssertionError, match=r'\[0, 2\)'):
            check(_Model(kind, 3), 2)


class TestConstantStubLink:

    @pytest.mark.parametrize('outputs', [
        numpy.ones((2, 3), numpy.float32),
        (numpy.ones((2, 3), numpy.float32), numpy.zeros(2, numpy.int32))])
    def test_forward(self, outputs):
        link = testing.ConstantStubLink(outputs)
        out = link(numpy.zeros((2, 1), numpy.float32))
        if isinstance(outputs, tuple):
            assert len(out) == 2
            for o, expected in zip(out, outputs):
                numpy.testing.assert_array_equal(o.array, expected)
        else:
            numpy.testing.assert_array_equal(out.array, outputs)

    def test_to_device(self, device):
        link = testing.ConstantStubLink(numpy.ones((2, 3), numpy.float32))
        link.to_device(device)
        out = link(None)
        assert type(out.array) is type(device.send(numpy.zeros(1)))

    def test_not_an_array(self):
        with pytest.raises(ValueError, match=r'outputs\[0\] is list'):
            testing.ConstantStubLink(([1, 2],))
