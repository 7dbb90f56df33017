import numpy
import pytest
from PIL import Image

from chainer_cv.datasets import voc_bbox_label_names
from chainer_cv.datasets import voc_semantic_segmentation_label_names
from chainer_cv.datasets import VOCBboxDataset
from chainer_cv.datasets import VOCInstanceSegmentationDataset
from chainer_cv.datasets import VOCSemanticSegmentationDataset

_OBJECT = """
  <object>
    <name>{name}</name>
    <difficult>{difficult}</difficult>
    <bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin><xmax>{x1}</xmax>
      <ymax>{y1}</ymax></bndbox>
  </object>"""


def _annotation(objects):
    return '<annotation><filename>x.jpg</filename>{}</annotation>'.format(
        ''.join(_OBJECT.format(**o) for o in objects))


@pytest.fixture
def voc_dir(tmp_path, write_image, write_label, write_text, random_rgb):
    root = tmp_path / 'VOCdevkit' / 'VOC2012'
    write_text(str(root / 'ImageSets' / 'Main' / 'train.txt'),
               '2008_000001\n2008_000002\n')
    write_text(str(root / 'ImageSets' / 'Segmentation' / 'train.txt'),
               '2008_000001\n')
    write_image(str(root / 'JPEGImages' / '2008_000001.jpg'),
                random_rgb(0, 12, 16))
    write_image(str(root / 'JPEGImages' / '2008_000002.jpg'),
                random_rgb(1, 10, 8))
    write_text(str(root / 'Annotations' / '2008_000001.xml'), _annotation([
        dict(name='dog', difficult=0, x0=2, y0=3, x1=10, y1=12),
        dict(name=' Person ', difficult=1, x0=1, y0=1, x1=4, y1=5),
    ]))
    write_text(str(root / 'Annotations' / '2008_000002.xml'),
               _annotation([]))
    classes = numpy.zeros((12, 16), dtype=numpy.uint8)
    objects = numpy.zeros((12, 16), dtype=numpy.uint8)
    classes[2:6, 3:9] = voc_semantic_segmentation_label_names.index('cat')
    objects[2:6, 3:9] = 1
    classes[8:11, 1:5] = voc_semantic_segmentation_label_names.index('cat')
    objects[8:11, 1:5] = 2
    classes[0, :] = 255
    objects[0, :] = 255
    write_label(str(root / 'SegmentationClass' / '2008_000001.png'),
                classes, palette=True)
    write_label(str(root / 'SegmentationObject' / '2008_000001.png'),
                objects, palette=True)
    return str(root)


def test_voc_bbox(voc_dir):
    dataset = VOCBboxDataset(voc_dir, split='train')
    assert dataset.keys == ('img', 'bbox', 'label')
    assert len(dataset) == 2
    img, bbox, label = dataset[0]
    assert img.shape == (3, 12, 16) and img.dtype == numpy.float32
    expected = numpy.asarray(Image.open(voc_dir + '/JPEGImages/'
                                        '2008_000001.jpg'), numpy.float32)
    numpy.testing.assert_array_equal(img, expected.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(bbox, [[2, 1, 11, 9]])
    assert bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        label, [voc_bbox_label_names.index('dog')])
    assert label.dtype == numpy.int32
    _, bbox, label = dataset[1]
    assert bbox.shape == (0, 4) and label.shape == (0,)


def test_voc_bbox_difficult(voc_dir):
    dataset = VOCBboxDataset(voc_dir, use_difficult=True,
                             return_difficult=True)
    assert dataset.keys == ('img', 'bbox', 'label', 'difficult')
    bbox, label, difficult = dataset.slice[:, ('bbox', 'label',
                                               'difficult')][0]
    numpy.testing.assert_array_equal(bbox, [[2, 1, 11, 9], [0, 0, 4, 3]])
    numpy.testing.assert_array_equal(label, [11, 14])
    numpy.testing.assert_array_equal(difficult, [False, True])
    assert difficult.dtype == bool
    # Without use_difficult, the difficult object is gone.
    difficult = VOCBboxDataset(voc_dir, return_difficult=True).slice[
        :, 'difficult'][0]
    numpy.testing.assert_array_equal(difficult, [False])


def test_voc_labels_without_images(voc_dir, monkeypatch):
    from chainer_cv.datasets import _io

    def refuse(*args, **kwargs):
        raise AssertionError('an image was read')
    monkeypatch.setattr(_io, 'read_image', refuse)
    labels = list(VOCBboxDataset(voc_dir).slice[:, 'label'])
    assert [len(lb) for lb in labels] == [1, 0]


def test_voc_semantic_segmentation(voc_dir):
    dataset = VOCSemanticSegmentationDataset(voc_dir)
    assert dataset.keys == ('img', 'label')
    img, label = dataset[0]
    assert img.shape == (3, 12, 16)
    assert label.shape == (12, 16) and label.dtype == numpy.int32
    assert (label[0] == -1).all()
    assert label[3, 4] == 8 and label[7, 7] == 0


def test_voc_instance_segmentation(voc_dir):
    dataset = VOCInstanceSegmentationDataset(voc_dir)
    assert dataset.keys == ('img', 'mask', 'label')
    _, mask, label = dataset[0]
    assert mask.shape == (2, 12, 16) and mask.dtype == bool
    numpy.testing.assert_array_equal(label, [7, 7])
    assert label.dtype == numpy.int32
    assert mask[0].sum() == 24 and mask[0, 2:6, 3:9].all()
    assert mask[1].sum() == 12 and mask[1, 8:11, 1:5].all()


def test_voc_bad_arguments(voc_dir, tmp_path):
    with pytest.raises(ValueError, match="VOCBboxDataset: split .*'tset'"):
        VOCBboxDataset(voc_dir, split='tset')
    with pytest.raises(ValueError, match="VOCBboxDataset: split"):
        VOCBboxDataset(voc_dir, split='test', year='2012')
    with pytest.raises(ValueError, match="year .*'2010'"):
        VOCBboxDataset(voc_dir, year='2010')
    with pytest.raises(FileNotFoundError,
                       match='VOCBboxDataset.*ImageSets.Main.val.txt'):
        VOCBboxDataset(voc_dir, split='val')
    with pytest.raises(FileNotFoundError,
                       match='VOCSemanticSegmentationDataset.*data_dir'):
        VOCSemanticSegmentationDataset(str(tmp_path / 'nothing'))


def test_voc_missing_and_corrupt_annotation(voc_dir, write_text):
    import os
    os.remove(voc_dir + '/Annotations/2008_000002.xml')
    dataset = VOCBboxDataset(voc_dir)
    with pytest.raises(FileNotFoundError, match='2008_000002.xml'):
        dataset[1]
    write_text(voc_dir + '/Annotations/2008_000002.xml', '<annotation><obj')
    with pytest.raises(ValueError, match='VOCBboxDataset.*2008_000002.xml'):
        dataset[1]
    write_text(voc_dir + '/Annotations/2008_000002.xml',
               _annotation([dict(name='unicorn', difficult=0, x0=1, y0=1,
                                 x1=2, y1=2)]))
    with pytest.raises(ValueError, match='invalid object'):
        dataset[1]


@pytest.mark.parametrize('xml', [
    '<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "hello">]>\n'
    '<annotation>&x;</annotation>',
    '<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x SYSTEM '
    '"file:///etc/passwd">]>\n<annotation>&x;</annotation>',
    '<?xml version="1.0"?>\n<!DOCTYPE a SYSTEM "http://example.com/a.dtd">'
    '\n<annotation/>',
])
def test_voc_refuses_entities(voc_dir, write_text, xml):
    write_text(voc_dir + '/Annotations/2008_000002.xml', xml)
    with pytest.raises(ValueError, match='declarations are refused'):
        VOCBboxDataset(voc_dir)[1]


def test_voc_refuses_path_out_of_data_dir(voc_dir, write_text):
    write_text(voc_dir + '/ImageSets/Main/train.txt', '../../secret\n')
    with pytest.raises(ValueError, match='leads out'):
        VOCBboxDataset(voc_dir)[0]
