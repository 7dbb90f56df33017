"""Differential fuzzing: random cases of common ops on every device against
the ``@numpy`` device."""
