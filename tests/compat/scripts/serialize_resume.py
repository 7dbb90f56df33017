#!/usr/bin/env python
"""Save and load a model and its optimizer (NPZ, and HDF5 when h5py is
installed), then stop a training run after a snapshot and resume it."""
import argparse
import json
import os

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import serializers
from chainer import training
from chainer.training import extensions


class Net(chainer.Chain):

    def __init__(self):
        super(Net, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 16)
            self.bn = L.BatchNormalization(16)
            self.l2 = L.Linear(16, 2)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


def make_dataset(rng):
    x = rng.normal(size=(128, 4)).astype(numpy.float32)
    t = (x.sum(axis=1) > 0).astype(numpy.int32)
    return chainer.datasets.TupleDataset(x, t)


def build(device, dataset, stop, out):
    model = L.Classifier(Net())
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    train_iter = chainer.iterators.SerialIterator(dataset, 16)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=out)
    trainer.extend(extensions.snapshot(
        filename='snapshot_iter_{.updater.iteration}'),
        trigger=(10, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(10, 'iteration')))
    return model, optimizer, trainer


def predict(model, x):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        return chainer.backend.CpuDevice().send(model.predictor(x).array)


def round_trip(save, load, model, optimizer, device, path, x):
    save(path + '.model', model)
    save(path + '.state', optimizer)
    restored = L.Classifier(Net())
    restored.to_device(device)
    restored_opt = chainer.optimizers.Adam()
    restored_opt.setup(restored)
    load(path + '.model', restored)
    load(path + '.state', restored_opt)
    return {
        'same_output': bool(numpy.array_equal(predict(model, x),
                                              predict(restored, x))),
        'same_t': restored_opt.t == optimizer.t,
        'same_avg_mean': bool(numpy.array_equal(
            chainer.backend.CpuDevice().send(model.predictor.bn.avg_mean),
            chainer.backend.CpuDevice().send(restored.predictor.bn.avg_mean))),
    }


def main():
    parser = argparse.ArgumentParser(description='Save, load and resume')
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--iteration', '-i', type=int, default=30)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()
    dataset = make_dataset(numpy.random.RandomState(args.seed))
    x = device.send(chainer.dataset.concat_examples(dataset[:8])[0])

    # A run stopped at iteration 20, with a snapshot every 10.
    model, optimizer, trainer = build(device, dataset, 20, args.out)
    trainer.run()
    result = {'npz': round_trip(serializers.save_npz, serializers.load_npz,
                                model, optimizer, device,
                                os.path.join(args.out, 'net.npz'), x)}
    try:
        import h5py  # NOQA
    except ImportError:
        result['hdf5'] = None
    else:
        result['hdf5'] = round_trip(
            serializers.save_hdf5, serializers.load_hdf5, model, optimizer,
            device, os.path.join(args.out, 'net.h5'), x)

    # A new process would do this: build everything again, load the last
    # snapshot, and go on to the full length.
    resumed_model, _, resumed = build(device, dataset, args.iteration,
                                      args.out)
    serializers.load_npz(os.path.join(args.out, 'snapshot_iter_20'), resumed)
    result['resumed_from'] = resumed.updater.iteration
    result['resumed_output'] = bool(numpy.array_equal(
        predict(model, x), predict(resumed_model, x)))
    resumed.run()
    result['final_iteration'] = resumed.updater.iteration
    result['log_iterations'] = [
        e['iteration'] for e in resumed.get_extension('LogReport').log]
    print(json.dumps(result))


if __name__ == '__main__':
    main()
