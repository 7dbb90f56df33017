"""Chainer's ``chainer.utils.error`` module path.

Chainer keeps only private message helpers here; error messages in this
project are built where they are raised, so the module has no public names.
"""
