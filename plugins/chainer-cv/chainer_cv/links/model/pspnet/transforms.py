import math

import numpy


def convolution_crop(img, size, stride, return_param=False):
    """Crops of ``size`` at every ``stride`` covering an image, as a
    convolution's windows, centred on it.

    The windows overhanging the image are zero outside it.

    Args:
        img (numpy.ndarray): a CHW image.
        size (pair of ints): ``(H, W)`` of a crop.
        stride (pair of ints): the step between crops.
        return_param (bool): also return where each crop lies.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): the crops ``(N, C, H,
        W)``; with ``return_param``, also a dict of lists of slices, one
        per crop: **y_slices**, **x_slices** (the part of the image in
        the crop) and **crop_y_slices**, **crop_x_slices** (where it lies
        in the crop).
    """
    _, H, W = img.shape
    n_y = int(math.ceil((H - size[0]) / stride[0])) + 1
    n_x = int(math.ceil((W - size[1]) / stride[1])) + 1
    # The overhang is split between the two sides.
    start_y = -(size[0] + stride[0] * (n_y - 1) - H) // 2
    start_x = -(size[1] + stride[1] * (n_x - 1) - W) // 2
    crops = numpy.zeros((n_y * n_x, img.shape[0]) + tuple(size), img.dtype)
    param = {'y_slices': [], 'x_slices': [], 'crop_y_slices': [],
             'crop_x_slices': []}
    for i in range(n_y * n_x):
        y_min = start_y + (i // n_x) * stride[0]
        x_min = start_x + (i % n_x) * stride[1]
        y_slice = slice(max(y_min, 0), min(y_min + size[0], H))
        x_slice = slice(max(x_min, 0), min(x_min + size[1], W))
        crop_y_slice = slice(y_slice.start - y_min, y_slice.stop - y_min)
        crop_x_slice = slice(x_slice.start - x_min, x_slice.stop - x_min)
        crops[i, :, crop_y_slice, crop_x_slice] = img[:, y_slice, x_slice]
        param['y_slices'].append(y_slice)
        param['x_slices'].append(x_slice)
        param['crop_y_slices'].append(crop_y_slice)
        param['crop_x_slices'].append(crop_x_slice)
    if return_param:
        return crops, param
    return crops
