"""DetectionVisReport writes one image per example at each trigger."""
import sys

import numpy
import pytest

from chainer_cv.extensions import DetectionVisReport

from ._fakes import FakePredictor, image, iterator, make_trainer

pytest.importorskip('matplotlib')


def _setup(n=3):
    bbox = [numpy.array([[1, 1, 5, 6]], numpy.float32)] * n
    label = [numpy.array([i % 2], numpy.int32) for i in range(n)]
    predictor = FakePredictor(bbox, label, [numpy.array([0.7])] * n)
    examples = [(image(i, (8, 8)), bbox[i], label[i]) for i in range(n)]
    return examples, predictor


@pytest.mark.parametrize('filename, names', [
    (None, ['detection_iter={}_idx={}.jpg']),
    ('vis_{index}_at_{iteration}.png', ['vis_{1}_at_{0}.png']),
])
class TestDetectionVisReport:

    def test_writes_an_image_per_example(self, filename, names, tmp_path):
        examples, predictor = _setup()
        kwargs = {} if filename is None else {'filename': filename}
        trainer = make_trainer(tmp_path)
        trainer.extend(DetectionVisReport(iterator(examples), predictor,
                                          label_names=('cat', 'dog'),
                                          **kwargs),
                       trigger=(1, 'iteration'))
        trainer.run()
        expected = {names[0].format(iteration, index)
                    for iteration in (1, 2) for index in range(3)}
        written = {path.name for path in tmp_path.iterdir()
                   if path.suffix in ('.jpg', '.png')}
        assert written == expected
        for name in written:
            assert (tmp_path / name).stat().st_size > 0

    def test_without_matplotlib(self, filename, names, tmp_path,
                                monkeypatch):
        for module in [m for m in sys.modules
                       if m == 'matplotlib' or m.startswith('matplotlib.')]:
            monkeypatch.delitem(sys.modules, module)
        monkeypatch.setitem(sys.modules, 'matplotlib', None)
        examples, predictor = _setup()
        with pytest.warns(RuntimeWarning, match=r'pip install '
                                                r'chainer-core-cv\[plot\]'):
            report = DetectionVisReport(iterator(examples), predictor)
        trainer = make_trainer(tmp_path)
        trainer.extend(report, trigger=(1, 'iteration'))
        trainer.run()
        assert not list(tmp_path.glob('*.jpg'))
        assert predictor.batches == []
