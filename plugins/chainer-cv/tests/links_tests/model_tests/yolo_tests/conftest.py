import pytest


@pytest.fixture(scope='session')
def yolo_model():
    """``yolo_model(cls, n_fg_class)``: one model per class and class count
    for all tests that only read it; the large ones take seconds to
    build."""
    cache = {}

    def get(cls, n_fg_class):
        if (cls, n_fg_class) not in cache:
            cache[cls, n_fg_class] = cls(n_fg_class=n_fg_class)
        return cache[cls, n_fg_class]
    return get
