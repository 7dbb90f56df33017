"""The benchmark workloads, written once against the Chainer API.

``build(chainer, name, batch, device)`` returns a ``step()`` callable. It
runs unchanged on chainer-core (``import chainer_core as chainer``) and on
the original Chainer, which is the point: the same user code, two runtimes.
"""
import numpy


def _classifier_step(chainer, model, x, t, lr=0.01):
    F = chainer.functions
    optimizer = chainer.optimizers.SGD(lr)
    optimizer.setup(model)

    def step():
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()

    return step


def _mlp(chainer, sizes):
    L = chainer.links
    F = chainer.functions

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.layers = chainer.ChainList(*[
                    L.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

        def forward(self, x):
            h = x
            for i, layer in enumerate(self.layers):
                h = layer(h)
                if i < len(self.layers) - 1:
                    h = F.relu(h)
            return h

    return MLP()


def _convnet(chainer):
    L = chainer.links
    F = chainer.functions

    class ConvNet(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 32, 3, pad=1)
                self.c2 = L.Convolution2D(32, 64, 3, pad=1)
                self.c3 = L.Convolution2D(64, 128, 3, pad=1)
                self.fc = L.Linear(128 * 8 * 8, 10)

        def forward(self, x):
            h = F.relu(self.c1(x))
            h = F.max_pooling_2d(F.relu(self.c2(h)), 2)
            h = F.max_pooling_2d(F.relu(self.c3(h)), 2)
            return self.fc(h)

    return ConvNet()


def _alexnet(chainer):
    """AlexNet's layer pattern (11x11 stride-4 convolution, local response
    normalization, overlapping 3x3 max pooling, dropout) on 64x64 inputs."""
    L = chainer.links
    F = chainer.functions

    class AlexNetSmall(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 64, 11, stride=4, pad=2)
                self.c2 = L.Convolution2D(64, 192, 5, pad=2)
                self.c3 = L.Convolution2D(192, 384, 3, pad=1)
                self.c4 = L.Convolution2D(384, 256, 3, pad=1)
                self.c5 = L.Convolution2D(256, 256, 3, pad=1)
                self.f6 = L.Linear(256, 1024)
                self.f7 = L.Linear(1024, 1024)
                self.f8 = L.Linear(1024, 10)

        def forward(self, x):
            h = F.local_response_normalization(F.relu(self.c1(x)))
            h = F.max_pooling_2d(h, 3, stride=2)
            h = F.local_response_normalization(F.relu(self.c2(h)))
            h = F.max_pooling_2d(h, 3, stride=2)
            h = F.relu(self.c3(h))
            h = F.relu(self.c4(h))
            h = F.max_pooling_2d(F.relu(self.c5(h)), 3, stride=2)
            h = F.dropout(F.relu(self.f6(h)))
            h = F.dropout(F.relu(self.f7(h)))
            return self.f8(h)

    return AlexNetSmall()


def _alexnet_torch(torch):
    """The model of :func:`_alexnet` in PyTorch (its LRN alpha is divided
    by the window size, Chainer's is not)."""
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(3, 64, 11, stride=4, padding=2), nn.ReLU(),
        nn.LocalResponseNorm(5, alpha=5e-4, beta=0.75, k=2.0),
        nn.MaxPool2d(3, 2, ceil_mode=True),
        nn.Conv2d(64, 192, 5, padding=2), nn.ReLU(),
        nn.LocalResponseNorm(5, alpha=5e-4, beta=0.75, k=2.0),
        nn.MaxPool2d(3, 2, ceil_mode=True),
        nn.Conv2d(192, 384, 3, padding=1), nn.ReLU(),
        nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(),
        nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(),
        nn.MaxPool2d(3, 2, ceil_mode=True), nn.Flatten(),
        nn.Linear(256, 1024), nn.ReLU(), nn.Dropout(),
        nn.Linear(1024, 1024), nn.ReLU(), nn.Dropout(),
        nn.Linear(1024, 10))


def build(chainer, name, batch, device):
    """A ``step()`` for workload ``name`` on ``device``."""
    rng = numpy.random.RandomState(0)
    if name == 'op_overhead':
        x = chainer.Variable(device.send(numpy.ones(1, numpy.float32)))

        def step():
            x + x

        return step
    if name == 'tiny_mlp_step':
        model, shape = _mlp(chainer, (10, 10, 10, 10)), (batch, 10)
    elif name == 'mlp_step':
        model, shape = _mlp(chainer, (784, 1000, 1000, 10)), (batch, 784)
    elif name == 'conv_step':
        model, shape = _convnet(chainer), (batch, 3, 32, 32)
    elif name == 'alexnet_step':
        model, shape = _alexnet(chainer), (batch, 3, 64, 64)
    else:
        raise ValueError('unknown workload {!r}'.format(name))
    model.to_device(device)
    x = device.send(rng.normal(size=shape).astype(numpy.float32))
    t = device.send(rng.randint(0, 10, batch).astype(numpy.int32))
    return _classifier_step(chainer, model, x, t)


def build_torch(torch, name, batch):
    """The same workloads written for PyTorch."""
    nn = torch.nn
    F = torch.nn.functional
    torch.manual_seed(0)
    if name == 'op_overhead':
        x = torch.ones(1, requires_grad=True)

        def step():
            x + x

        return step
    if name in ('tiny_mlp_step', 'mlp_step'):
        sizes = (10, 10, 10, 10) if name == 'tiny_mlp_step' else \
            (784, 1000, 1000, 10)
        layers = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(nn.Linear(a, b))
            if i < len(sizes) - 2:
                layers.append(nn.ReLU())
        model = nn.Sequential(*layers)
        x = torch.randn(batch, sizes[0])
    elif name == 'conv_step':
        model = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(128 * 8 * 8, 10))
        x = torch.randn(batch, 3, 32, 32)
    elif name == 'alexnet_step':
        model = _alexnet_torch(torch)
        x = torch.randn(batch, 3, 64, 64)
    else:
        raise ValueError('unknown workload {!r}'.format(name))
    t = torch.randint(0, 10, (batch,))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        loss = F.cross_entropy(model(x), t)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    return step
