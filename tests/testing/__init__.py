"""Tests of chainer_core.testing."""
