"""Train a multi-layer perceptron on handwritten digits.

By default the digits set that ships with scikit-learn is used, so the
example runs offline; ``--dataset mnist`` downloads MNIST instead.
"""
import argparse

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training
from chainer_core.training import extensions


class MLP(chainer.Chain):
    """Two hidden layers of ``n_units`` with ReLU."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            # Input sizes are inferred on the first batch.
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def load(name):
    if name == 'digits':
        return chainer.datasets.get_digits()
    return chainer.datasets.get_mnist()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='examples in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the dataset')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: at the '
                        'end only)')
    parser.add_argument('--device', '-d', type=str, default=None,
                        help="device specifier ('@numpy', 'native:0', ...; "
                        'default: the best installed)')
    parser.add_argument('--out', '-o', default='result',
                        help='folder for the log, plots and snapshots')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume from this snapshot file')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the newest snapshot in --out')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='units in each hidden layer')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='do not write loss.png and accuracy.png')
    parser.add_argument('--dataset', choices=('digits', 'mnist'),
                        default='digits', help='the data to train on')
    parser.add_argument('--export-onnx', metavar='PATH',
                        help='after training, export the model to ONNX at '
                        'PATH and compare onnxruntime with it (needs '
                        'chainer-core[onnx])')
    args = parser.parse_args()
    if args.export_onnx:
        # Before training: without onnx this says what to install.
        import chainer_core.onnx  # NOQA

    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = load(args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer,
                                                device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=2, autoload=args.autoload),
                   trigger=(frequency, 'epoch'))
    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(
            ['main/loss', 'validation/main/loss'], 'epoch',
            filename='loss.png'))
        trainer.extend(extensions.PlotReport(
            ['main/accuracy', 'validation/main/accuracy'], 'epoch',
            filename='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar(update_interval=10))

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    if args.export_onnx:
        export_onnx(model.predictor, test, device, args.export_onnx)


def export_onnx(predictor, dataset, device, path):
    """Export ``predictor`` to ONNX at ``path``, traced on a batch of
    ``dataset``, and print how far onnxruntime's outputs are from ours."""
    import chainer_core.onnx
    x = chainer.dataset.concat_examples(dataset[:10], device)[0]
    onnx_model, inputs, outputs = chainer_core.onnx.export(
        predictor, x, path, return_named_inout=True)
    print('ONNX model (opset {}) written to {}'.format(
        onnx_model.opset_import[0].version, path))
    try:
        diff = chainer_core.onnx.compare_with_onnxruntime(
            onnx_model, inputs, outputs)
    except ImportError:
        print('onnxruntime is not installed: the model was not run')
        return
    print('onnxruntime: max difference from chainer-core {:.3g}'.format(diff))


if __name__ == '__main__':
    main()
