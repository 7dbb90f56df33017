"""MultiNodeBatchNormalization on N processes with batches of B behaves as
BatchNormalization on one process with a batch of N * B: outputs,
gradients, running statistics, and parameters after training (with the
multi-node optimizer). Also create_mnbn_model."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_mn
from chainer_mn.links import MultiNodeBatchNormalization, create_mnbn_model
from _mpitest import check, close, ok

comm = chainer_mn.create_communicator('flat')
r, n = comm.rank, comm.size
B, C = 3, 4


class Net(chainer.Chain):
    def __init__(self, bn):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, C, 3, pad=1)
            self.bn = bn
            self.out = L.Linear(C * 5 * 5, 3)

    def forward(self, x):
        return self.out(F.relu(self.bn(self.conv(x))))


numpy.random.seed(0)
ref = Net(L.BatchNormalization(C))
numpy.random.seed(0)
net = Net(MultiNodeBatchNormalization(C, comm))
rng = numpy.random.RandomState(1)
xs = rng.normal(2.0, 3.0, size=(5, n * B, 2, 5, 5)).astype(numpy.float32)
ts = rng.randint(0, 3, size=(5, n * B)).astype(numpy.int32)
mine = slice(r * B, (r + 1) * B)

# One step by hand: outputs, input gradient, parameter gradients.
h = rng.normal(1.0, 2.0, size=(n * B, C, 3, 2)).astype(numpy.float32)
x_all = chainer.Variable(h)
ref.cleargrads()
y_all = ref.bn(x_all)
F.sum(y_all * y_all).backward()
x = chainer.Variable(h[mine])
net.cleargrads()
y = net.bn(x)
F.sum(y * y).backward()
close(y.array, y_all.array[mine], 'forward', rtol=1e-4, atol=1e-5)
close(x.grad, x_all.grad[mine], 'input gradient', rtol=1e-4, atol=1e-5)
comm.multi_node_mean_grad(net.bn)
# the mean of the processes' gamma gradients is the one-process gradient
# divided by n (each process's loss counts once in n)
close(net.bn.gamma.grad * n, ref.bn.gamma.grad, 'gamma gradient',
      rtol=1e-4, atol=1e-4)
close(net.bn.beta.grad * n, ref.bn.beta.grad, 'beta gradient',
      rtol=1e-4, atol=1e-4)
close(net.bn.avg_mean, ref.bn.avg_mean, 'running mean', rtol=1e-5)
close(net.bn.avg_var, ref.bn.avg_var, 'running variance', rtol=1e-5)

# Training: the same parameters as one process on the combined batches.
numpy.random.seed(0)
ref = Net(L.BatchNormalization(C))
numpy.random.seed(0)
net = Net(MultiNodeBatchNormalization(C, comm))
ref_opt = chainer.optimizers.MomentumSGD(lr=0.05).setup(ref)
opt = chainer_mn.create_multi_node_optimizer(
    chainer.optimizers.MomentumSGD(lr=0.05), comm).setup(net)
opt.update()
for step in range(5):
    opt.update(lambda: F.softmax_cross_entropy(net(xs[step][mine]),
                                               ts[step][mine]))
    ref_opt.update(lambda: F.softmax_cross_entropy(ref(xs[step]), ts[step]))
for (path, p), (_, q) in zip(sorted(net.namedparams()),
                             sorted(ref.namedparams())):
    close(p.array, q.array, 'trained ' + path, rtol=1e-4, atol=1e-5)
close(net.bn.avg_var, ref.bn.avg_var, 'trained running variance',
      rtol=1e-4)
with chainer.using_config('train', False):
    close(net(xs[0][mine]).array, ref(xs[0]).array[mine], 'test mode',
          rtol=1e-4, atol=1e-5)

# create_mnbn_model: a converted copy with the same parameters.
numpy.random.seed(0)
plain = L.Classifier(Net(L.BatchNormalization(C)))
plain.predictor.bn.avg_mean[...] = 3
converted = create_mnbn_model(plain, comm)
check(type(converted.predictor.bn) is MultiNodeBatchNormalization,
      'converted')
check(type(plain.predictor.bn) is L.BatchNormalization, 'original kept')
close(converted.predictor.bn.avg_mean, numpy.full(C, 3), 'statistics kept')
for (path, p), (_, q) in zip(sorted(converted.namedparams()),
                             sorted(plain.namedparams())):
    close(p.array, q.array, 'converted ' + path, rtol=0, atol=0)
    check(p is not q, 'parameters are copies')
seq = create_mnbn_model(chainer.ChainList(L.BatchNormalization(2)), comm)
check(type(seq[0]) is MultiNodeBatchNormalization, 'ChainList converted')
try:
    MultiNodeBatchNormalization(C, comm, communication_backend='nccl')
except ValueError:
    pass
else:
    check(False, "'nccl' accepted without NCCL")
ok(comm)
