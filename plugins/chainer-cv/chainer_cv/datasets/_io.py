"""Readers of the files data sets ship: images, label images, XML and JSON.

Data sets come from strangers, so reading a file runs no code and follows
no reference out of it: XML with a document type or entity declaration is
refused (no entity expansion, no external entities), images are held to
Pillow's decompression-bomb limit, and paths named inside a data set must
stay inside its directory.
"""
import json
import os
import warnings
import xml.etree.ElementTree as ElementTree
import xml.parsers.expat

import numpy
from PIL import Image


def _open_image(path):
    # Pillow only warns between its pixel limit and twice that; an image
    # that large in a data set is an attack or a mistake either way.
    with warnings.catch_warnings():
        warnings.simplefilter('error', Image.DecompressionBombWarning)
        try:
            image = Image.open(path)
            image.load()
        except Image.DecompressionBombWarning as e:
            raise Image.DecompressionBombError(
                '{}: {}'.format(path, e)) from e
    return image


def read_image(path, dtype=numpy.float32, color=True):
    """Read an image as a CHW array.

    Args:
        path (str): the image file.
        dtype: the dtype of the array.
        color (bool): RGB (three channels) if true, else grayscale (one).

    Returns:
        numpy.ndarray: ``(3, H, W)`` or ``(1, H, W)``, values in [0, 255].
    """
    image = _open_image(path)
    array = numpy.asarray(image.convert('RGB' if color else 'L'),
                          dtype=dtype)
    if array.ndim == 2:
        return array[numpy.newaxis]
    return array.transpose(2, 0, 1)


def read_label(path, dtype=numpy.int32):
    """Read a label image (palette indices or gray levels) as an HW array.

    Args:
        path (str): the image file.
        dtype: the dtype of the array.

    Returns:
        numpy.ndarray: ``(H, W)``.

    Raises:
        ValueError: the image has colour channels, not labels.
    """
    image = _open_image(path)
    array = numpy.asarray(image)
    if array.ndim != 2:
        raise ValueError('{}: a label image must have one channel (a palette '
                         'or gray image), got mode {}'
                         .format(path, image.mode))
    return array.astype(dtype)


def _refuse_declaration(*args):
    raise ValueError('document type and entity declarations are refused')


def parse_xml(path, owner):
    """Parse an XML file that has no DOCTYPE or ENTITY declaration.

    Args:
        path (str): the XML file.
        owner (str): the class reading it, for error messages.

    Returns:
        xml.etree.ElementTree.Element: the root element.

    Raises:
        ValueError: the file declares a document type or an entity, or is
            not well-formed XML.
    """
    with open(path, 'rb') as f:
        data = f.read()
    # A first pass with the bare parser sees the declarations before any
    # entity is expanded, whatever the encoding of the file.
    checker = xml.parsers.expat.ParserCreate()
    checker.StartDoctypeDeclHandler = _refuse_declaration
    checker.EntityDeclHandler = _refuse_declaration
    checker.SetParamEntityParsing(
        xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        checker.Parse(data, True)
        return ElementTree.fromstring(data)
    except (ValueError, xml.parsers.expat.ExpatError,
            ElementTree.ParseError) as e:
        raise ValueError('{}: cannot read the annotation file {}: {}'
                         .format(owner, path, e)) from e


def load_json(path, owner):
    """Load a JSON file, naming the file and its reader if it is corrupt."""
    try:
        with open(path, 'rb') as f:
            return json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError('{}: cannot read the annotation file {}: {}'
                         .format(owner, path, e)) from e


def join_inside(root, relative, owner):
    """Join a path named in a data set's files to the data set's directory,
    refusing one that would lead out of it.

    Raises:
        ValueError: ``relative`` is absolute or climbs out of ``root``.
    """
    parts = relative.replace('\\', '/').split('/')
    if os.path.isabs(relative) or '..' in parts or \
            os.path.splitdrive(relative)[0]:
        raise ValueError('{}: the path {!r} named in the data set leads out '
                         'of its directory {}'.format(owner, relative, root))
    return os.path.join(root, *[p for p in parts if p not in ('', '.')])


def require(path, owner, data_dir):
    """Raise a clear error if a file or directory of the layout is missing.

    Raises:
        FileNotFoundError: names the class, ``data_dir`` and the missing
            path.
    """
    if not os.path.exists(path):
        raise FileNotFoundError(
            '{}: data_dir={!r} does not have the expected layout: {} is '
            'missing'.format(owner, data_dir, path))
    return path


def check_choice(owner, name, value, choices):
    """Raise ValueError naming the argument if ``value`` is not a choice."""
    if value not in choices:
        raise ValueError('{}: {} must be one of {}, got {!r}'
                         .format(owner, name, ', '.join(map(repr, choices)),
                                 value))


def read_lines(path, owner, data_dir):
    """The non-empty, stripped lines of a text file of the layout."""
    with open(require(path, owner, data_dir)) as f:
        return [line.strip() for line in f if line.strip()]
