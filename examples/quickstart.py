"""Define-by-run in a few lines: fit a two-layer network to a noisy sine.

Runs on the best installed device (``CHAINER_DEVICE`` overrides it).
"""
import argparse

import numpy

import chainer_core as chainer
import chainer_core.functions as F


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--device', default=None,
                        help="device specifier, e.g. '@numpy' (default: auto)")
    parser.add_argument('--steps', type=int, default=2000)
    parser.add_argument('--lr', type=float, default=0.05)
    args = parser.parse_args()

    device = chainer.get_device(args.device)
    print('device:', device)
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-3, 3, (256, 1)).astype(numpy.float32)
    t = (numpy.sin(x) + rng.normal(0, 0.05, x.shape)).astype(numpy.float32)
    x, t = device.send((x, t))

    params = [
        chainer.Parameter(rng.normal(0, 1, (32, 1)).astype(numpy.float32)),
        chainer.Parameter(numpy.zeros(32, numpy.float32)),
        chainer.Parameter(rng.normal(0, 0.2, (1, 32)).astype(numpy.float32)),
        chainer.Parameter(numpy.zeros(1, numpy.float32)),
    ]
    for p in params:
        p.to_device(device)
    W1, b1, W2, b2 = params

    for step in range(args.steps + 1):
        y = F.linear(F.tanh(F.linear(x, W1, b1)), W2, b2)
        loss = F.mean_squared_error(y, t)
        for p in params:
            p.cleargrad()
        loss.backward()
        for p in params:
            p.array -= args.lr * p.grad
        if step % 500 == 0:
            print('step {:5d}  loss {:.5f}'.format(step, float(loss.array)))
    final = float(loss.array)
    if not final < 0.02:
        raise SystemExit('did not converge: loss {:.4f}'.format(final))


if __name__ == '__main__':
    main()
