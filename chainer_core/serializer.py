"""Base classes of serializers (writers) and deserializers (readers)."""


class AbstractSerializer:
    """Visits objects by key paths: ``serializer['child']('key', value)``."""

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """Writes: ``__call__(key, value)`` stores value and returns it."""

    def save(self, obj):
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Reads: ``__call__(key, value)`` copies the stored array into value
    (in place) and returns it, or returns the stored value when value is
    None or not an array."""

    def load(self, obj):
        obj.serialize(self)
