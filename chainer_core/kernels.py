"""Kernels for add-ons that define ops of their own.

An op's array work goes through the kernel registry (DESIGN.md section 3,
Ops and kernels): :func:`declare` gives a kernel a name and its reference
implementation, written against an array namespace ``xp``; :func:`lookup`
returns the implementation for the device of an array (a backend's own,
when one registered it, else the reference on that device's memory). An
add-on names its kernels with its own prefix (``'chainer_cv.ps_roi_select'``)
so that backends can register faster ones under that name.
"""
from chainer_core._runtime.kernels import declare, lookup  # NOQA
