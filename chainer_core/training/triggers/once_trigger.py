"""OnceTrigger: fire once (and optionally again on resume)."""


class OnceTrigger:
    """Fire at the first call only.

    Args:
        call_on_resume (bool): also fire at the first call after the
            training is resumed from a snapshot taken after it fired.

    Attributes:
        finished (bool): True once it will not fire any more.
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = not self.finished
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        self._flag_first = bool(serializer('_flag_first', self._flag_first))
