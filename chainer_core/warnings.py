"""Warning categories (Chainer's ``chainer.warnings``)."""


class PerformanceWarning(RuntimeWarning):
    """Something runs correctly but slower than it could (a fallback to a
    reference kernel, a transfer between devices)."""
