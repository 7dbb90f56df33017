import numpy
import pytest

from chainer_cv.datasets import cub_label_names
from chainer_cv.datasets import CUBLabelDataset
from chainer_cv.datasets import directory_parsing_label_names
from chainer_cv.datasets import DirectoryParsingLabelDataset
from chainer_cv.datasets import OnlineProductsDataset


@pytest.fixture
def cub_dir(tmp_path, write_image, write_label, write_text, random_rgb):
    data = tmp_path / 'CUB_200_2011'
    paths = ['001.Black_footed_Albatross/a.jpg',
             '200.Common_Yellowthroat/b.jpg']
    for seed, path in enumerate(paths):
        write_image(str(data / 'images' / path), random_rgb(seed, 8, 10))
    write_label(str(tmp_path / 'segmentations' /
                    '001.Black_footed_Albatross' / 'a.png'),
                numpy.full((8, 10), 255) * (numpy.arange(10) < 5))
    write_text(str(data / 'images.txt'),
               ''.join('{} {}\n'.format(i + 1, p) for i, p in
                       enumerate(paths)))
    write_text(str(data / 'classes.txt'),
               '1 001.Black_footed_Albatross\n200 200.Common_Yellowthroat\n')
    write_text(str(data / 'bounding_boxes.txt'),
               '1 1.0 2.0 5.0 4.0\n2 0.0 0.0 10.0 8.0\n')
    return tmp_path


def test_cub(cub_dir):
    dataset = CUBLabelDataset(str(cub_dir / 'CUB_200_2011'),
                              return_bbox=True,
                              prob_map_dir=str(cub_dir / 'segmentations'),
                              return_prob_map=True)
    assert dataset.keys == ('img', 'label', 'bbox', 'prob_map')
    img, label, bbox, prob_map = dataset[0]
    assert img.shape == (3, 8, 10) and img.dtype == numpy.float32
    assert label == 0 and label.dtype == numpy.int32
    label = dataset.slice[:, 'label'][1]
    assert cub_label_names[label] == 'Common_Yellowthroat'
    numpy.testing.assert_array_equal(bbox, [[2, 1, 6, 6]])
    assert bbox.dtype == numpy.float32
    assert prob_map.shape == (8, 10) and prob_map.dtype == numpy.float32
    assert (prob_map[:, :5] == 1).all() and (prob_map[:, 5:] == 0).all()
    assert CUBLabelDataset(str(cub_dir / 'CUB_200_2011')).keys == (
        'img', 'label')


def test_cub_missing_file(cub_dir):
    (cub_dir / 'CUB_200_2011' / 'bounding_boxes.txt').unlink()
    with pytest.raises(FileNotFoundError,
                       match='CUBLabelDataset.*bounding_boxes.txt'):
        CUBLabelDataset(str(cub_dir / 'CUB_200_2011'))


def test_online_products(tmp_path, write_image, write_text, random_rgb):
    write_image(str(tmp_path / 'bicycle_final' / 'a.JPG'),
                random_rgb(0, 5, 7))
    write_image(str(tmp_path / 'mug_final' / 'b.JPG'), random_rgb(1, 6, 3))
    write_text(str(tmp_path / 'Ebay_test.txt'),
               'image_id class_id super_class_id path\n'
               '1 1 1 bicycle_final/a.JPG\n2 5 8 mug_final/b.JPG\n')
    dataset = OnlineProductsDataset(str(tmp_path), split='test')
    assert dataset.keys == ('img', 'label', 'super_label')
    img, label, super_label = dataset[1]
    assert img.shape == (3, 6, 3)
    assert label == 4 and super_label == 7
    assert label.dtype == super_label.dtype == numpy.int32
    with pytest.raises(ValueError, match="split .*'val'"):
        OnlineProductsDataset(str(tmp_path), split='val')
    with pytest.raises(FileNotFoundError, match='Ebay_train.txt'):
        OnlineProductsDataset(str(tmp_path))


def test_directory_parsing(tmp_path, write_image, write_text, random_rgb):
    for name in ('class10/x.png', 'class2/y.png', 'class2/z.jpg',
                 'nested/deep/w.png'):
        write_image(str(tmp_path / name), random_rgb(0, 3, 4))
    write_text(str(tmp_path / 'class2' / 'notes.txt'), 'not an image')
    assert directory_parsing_label_names(str(tmp_path)) == [
        'class10', 'class2', 'nested/deep']
    assert directory_parsing_label_names(
        str(tmp_path), numerical_sort=True) == [
        'class2', 'class10', 'nested/deep']
    dataset = DirectoryParsingLabelDataset(str(tmp_path),
                                           numerical_sort=True)
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == 4
    numpy.testing.assert_array_equal(list(dataset.slice[:, 'label']),
                                     [0, 0, 1, 2])
    gray = DirectoryParsingLabelDataset(str(tmp_path), color=False)
    assert gray[0][0].shape == (1, 3, 4)
    only_png = DirectoryParsingLabelDataset(
        str(tmp_path), check_img_file=lambda p: p.endswith('.png'))
    assert len(only_png) == 3
    with pytest.raises(FileNotFoundError, match='root='):
        DirectoryParsingLabelDataset(str(tmp_path / 'missing'))
