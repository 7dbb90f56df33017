"""Updater: one training step, with its iterators and optimizers."""


class Updater:
    """Base of updaters (``update`` does one iteration)."""

    def connect_trainer(self, trainer):
        pass

    def finalize(self):
        pass

    def get_optimizer(self, name):
        raise NotImplementedError

    def get_all_optimizers(self):
        raise NotImplementedError

    def update(self):
        raise NotImplementedError

    def serialize(self, serializer):
        raise NotImplementedError
