"""Evaluation functions: accuracy and friends.

As in Chainer, the package holds one module per op (or family of
ops); ``chainer_core.functions`` exports their functions.
"""
