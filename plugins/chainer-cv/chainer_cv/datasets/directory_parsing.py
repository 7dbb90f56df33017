"""Image classification data sets laid out as one folder per class."""
import os
import re

import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _io

_IMAGE_EXTENSIONS = ('.bmp', '.jpeg', '.jpg', '.png', '.ppm', '.pgm')


def _is_image(path):
    return os.path.splitext(path)[1].lower() in _IMAGE_EXTENSIONS


def _natural_key(text):
    return [(0, int(part), '') if part.isdigit() else (1, 0, part)
            for part in re.split(r'(\d+)', text)]


def directory_parsing_label_names(root, numerical_sort=False):
    """The class names of a folder-per-class data set: the paths, relative
    to ``root``, of its folders that have no subfolder, sorted.

    Args:
        root (str): the data set's directory.
        numerical_sort (bool): sort runs of digits by value (``'2'`` before
            ``'10'``) rather than character by character.

    Returns:
        list of str: the label names; a label is an index in this list.
    """
    names = []
    for directory, subdirectories, _ in os.walk(root):
        if not subdirectories and directory != root:
            names.append(os.path.relpath(directory, root).replace(os.sep, '/'))
    return sorted(names, key=_natural_key if numerical_sort else None)


class DirectoryParsingLabelDataset(GetterDataset):
    """A labelled image data set read from one folder per class.

    ``root/cat/1.jpg`` is an image of the class ``'cat'``; nested folders
    give classes like ``'animal/cat'``. The label is the index of the class
    in :func:`directory_parsing_label_names`.

    Args:
        root (str): the data set's directory.
        check_img_file (callable): ``check_img_file(path)`` tells whether a
            file is an image to load; by default, files ending in .bmp,
            .jpeg, .jpg, .png, .ppm or .pgm.
        color (bool): read RGB images (else grayscale, one channel).
        numerical_sort (bool): order the classes and the files in them by
            the value of the numbers in their names.

    The keys are ``'img'`` (float32 ``(3, H, W)`` or ``(1, H, W)``) and
    ``'label'`` (int32).
    """

    def __init__(self, root, check_img_file=None, color=True,
                 numerical_sort=False):
        super().__init__()
        if not os.path.isdir(root):
            raise FileNotFoundError(
                'DirectoryParsingLabelDataset: root={!r} is not a directory'
                .format(root))
        check_img_file = check_img_file or _is_image
        key = _natural_key if numerical_sort else None
        self.root = root
        self.color = color
        self.img_paths = []
        labels = []
        names = directory_parsing_label_names(root, numerical_sort)
        for label, name in enumerate(names):
            directory = os.path.join(root, name)
            for file_name in sorted(os.listdir(directory), key=key):
                path = os.path.join(directory, file_name)
                if os.path.isfile(path) and check_img_file(path):
                    self.img_paths.append(path)
                    labels.append(label)
        self._labels = numpy.array(labels, dtype=numpy.int32)
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._labels.__getitem__)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return _io.read_image(self.img_paths[i], color=self.color)
