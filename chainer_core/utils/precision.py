"""Mixed-precision helpers (Chainer's ``chainer.utils.precision``).

Chainer keeps only a private float16 helper here; ops in this project
choose their computation dtype themselves, so the module has no public
names.
"""
