"""TimeTrigger: fire every so many seconds of training."""


class TimeTrigger:
    """Fire once every ``period`` seconds of the trainer's
    ``elapsed_time`` (which continues across a resume).

    Args:
        period (float): seconds between firings.
    """

    def __init__(self, period):
        if period <= 0:
            raise ValueError('TimeTrigger: period must be positive, got {}'
                             .format(period))
        self._period = period
        self._next_time = period

    def __call__(self, trainer):
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        self._next_time = float(serializer('next_time', self._next_time))
