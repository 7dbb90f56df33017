"""Tests of the training loop, its triggers, updaters and extensions."""
