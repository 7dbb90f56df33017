import numpy

from chainer_cv.utils._checks import check_image

# The principal components of ImageNet's RGB pixel values (values in
# [0, 1]), as published with AlexNet and used since by most ImageNet
# training recipes.
_EIGEN_VALUE = numpy.array((0.2175, 0.0188, 0.0045))
_EIGEN_VECTOR = numpy.array(((-0.5675, 0.7192, 0.4009),
                             (-0.5808, -0.0045, -0.8140),
                             (-0.5836, -0.6948, 0.4203)))


def pca_lighting(img, sigma, eigen_value=None, eigen_vector=None):
    """AlexNet-style colour augmentation along the principal components.

    Adds :math:`V (\\lambda \\odot \\alpha)` to every pixel, where
    :math:`V` holds the eigenvectors as columns, :math:`\\lambda` the
    eigenvalues and :math:`\\alpha \\sim N(0, \\sigma^2)` is drawn once per
    call (NumPy's global random state).

    Args:
        img (numpy.ndarray): An RGB CHW image.
        sigma (float): The standard deviation of :math:`\\alpha`; with
            values in :math:`[0, 255]`, 25.5 matches AlexNet's 0.1.
        eigen_value (numpy.ndarray): The eigenvalues, shape (3,); ImageNet's
            by default.
        eigen_vector (numpy.ndarray): The eigenvectors as columns, shape
            (3, 3); ImageNet's by default.

    Returns:
        numpy.ndarray: The new image (``img`` is not modified).

    .. admonition:: Example

        >>> img = numpy.full((3, 8, 8), 128, numpy.float32)
        >>> pca_lighting(img, 25.5).shape
        (3, 8, 8)
    """
    check_image(img, 'pca_lighting')
    if img.shape[0] != 3:
        raise ValueError('pca_lighting: img must be RGB (3, H, W); got '
                         'shape {}'.format(img.shape))
    if sigma <= 0:
        return img.copy()
    eigen_value = _EIGEN_VALUE if eigen_value is None else eigen_value
    eigen_vector = _EIGEN_VECTOR if eigen_vector is None else eigen_vector
    alpha = numpy.random.normal(0, sigma, size=3)
    shift = numpy.asarray(eigen_vector).dot(eigen_value * alpha)
    return (img + shift.reshape(3, 1, 1)).astype(img.dtype)
