"""The conformance kit: every op, optimizer and link of chainer-core on
every device, against the NumPy reference.

For each device of the test table (one per available backend, or those
listed in ``CHAINER_TEST_DEVICES``; see :mod:`chainer_core.testing.backend`)
it checks forward results against NumPy references, first and second order
gradients against numerical ones, float16/32/64, NaN, infinities and empty
inputs, bad input (a ``TypeError`` or ``ValueError`` naming the op and the
argument), inputs on two devices, mixed dtypes, every link and every
optimizer. Install a backend and run::

    pytest --pyargs chainer_core.testing.conformance

(with ``CHAINER_TEST_DEVICES=mybackend:0`` set to test that device alone).

The op cases are data (``cases/``, and ``bad/`` for bad input): a new op
category is one module there. The ``device`` argument of the tests is
parametrised by :mod:`.plugin`, which pytest loads through chainer-core's
``pytest11`` entry point, over the table its ``chainer_device`` fixture
uses.
"""
