#!/usr/bin/env python
"""A variational autoencoder with a Bernoulli decoder, written with
chainer.distributions, on synthetic binary patterns."""
import argparse
import json

import numpy

import chainer
import chainer.distributions as D
import chainer.functions as F
import chainer.links as L
from chainer import reporter
from chainer import training
from chainer.training import extensions


class Encoder(chainer.Chain):

    def __init__(self, n_in, n_latent, n_h):
        super(Encoder, self).__init__()
        with self.init_scope():
            self.linear = L.Linear(n_in, n_h)
            self.mu = L.Linear(n_h, n_latent)
            self.ln_sigma = L.Linear(n_h, n_latent)

    def forward(self, x):
        h = F.tanh(self.linear(x))
        return D.Normal(loc=self.mu(h), log_scale=self.ln_sigma(h))


class Decoder(chainer.Chain):

    def __init__(self, n_in, n_latent, n_h):
        super(Decoder, self).__init__()
        with self.init_scope():
            self.linear = L.Linear(n_latent, n_h)
            self.output = L.Linear(n_h, n_in)

    def forward(self, z, inference=False):
        n_batch_axes = 1 if inference else 2
        h = F.tanh(self.linear(z, n_batch_axes=n_batch_axes))
        logit = self.output(h, n_batch_axes=n_batch_axes)
        return D.Bernoulli(logit=logit, binary_check=False)


class Prior(chainer.Link):

    def __init__(self, n_latent):
        super(Prior, self).__init__()
        self.loc = numpy.zeros(n_latent, numpy.float32)
        self.scale = numpy.ones(n_latent, numpy.float32)
        self.register_persistent('loc')
        self.register_persistent('scale')

    def forward(self):
        return D.Normal(self.loc, scale=self.scale)


class ELBO(chainer.Chain):

    def __init__(self, encoder, decoder, prior, beta=1.0, k=1):
        super(ELBO, self).__init__()
        self.beta = beta
        self.k = k
        with self.init_scope():
            self.encoder = encoder
            self.decoder = decoder
            self.prior = prior

    def forward(self, x):
        q_z = self.encoder(x)
        z = q_z.sample(self.k)
        p_x = self.decoder(z)
        p_z = self.prior()
        reconstr = F.mean(F.sum(p_x.log_prob(
            F.broadcast_to(x[None, :], (self.k,) + x.shape)), axis=-1))
        kl_penalty = F.mean(F.sum(chainer.kl_divergence(q_z, p_z), axis=-1))
        loss = self.beta * kl_penalty - reconstr
        reporter.report({'loss': loss, 'reconstr': reconstr,
                         'kl_penalty': kl_penalty}, self)
        return loss


def make_patterns(n, n_in, rng):
    """Noisy copies of four binary prototypes."""
    prototypes = rng.rand(4, n_in) < 0.5
    x = prototypes[rng.randint(4, size=n)]
    flip = rng.rand(n, n_in) < 0.05
    return (x ^ flip).astype(numpy.float32)


def main():
    parser = argparse.ArgumentParser(description='VAE on binary patterns')
    parser.add_argument('--batchsize', '-b', type=int, default=32)
    parser.add_argument('--epoch', '-e', type=int, default=8)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--dim-z', '-z', type=int, default=2)
    parser.add_argument('--dim-h', type=int, default=32)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    patterns = make_patterns(576, 20, rng)
    train, test = patterns[:512], patterns[512:]

    encoder = Encoder(20, args.dim_z, args.dim_h)
    decoder = Decoder(20, args.dim_z, args.dim_h)
    prior = Prior(args.dim_z)
    avg_elbo_loss = ELBO(encoder, decoder, prior)
    avg_elbo_loss.to_device(device)

    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(avg_elbo_loss)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device, loss_func=avg_elbo_loss)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, avg_elbo_loss,
                                        device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/reconstr',
         'main/kl_penalty']))
    trainer.run()

    # Reconstruct the test patterns through the means of q(z|x).
    x = device.send(test[:16])
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        p_x = decoder(encoder(x).mean, inference=True)
        recon = chainer.backend.CpuDevice().send(p_x.mean.array)
    error = float(numpy.mean(numpy.abs((recon > 0.5) - test[:16])))
    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'val_loss': log[-1]['validation/main/loss'],
        'reconstruction_error': error,
    }))


if __name__ == '__main__':
    main()
