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


def _bn_convnet(chainer):
    """Conv-BN-ReLU four times, the middle two as a residual block (ResNet's
    basic block), with max pooling and a linear classifier; convolutions
    have no bias since the batch normalization that follows cancels it."""
    L = chainer.links
    F = chainer.functions

    class BNConvNet(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 32, 3, pad=1, nobias=True)
                self.b1 = L.BatchNormalization(32)
                self.c2 = L.Convolution2D(32, 32, 3, pad=1, nobias=True)
                self.b2 = L.BatchNormalization(32)
                self.c3 = L.Convolution2D(32, 32, 3, pad=1, nobias=True)
                self.b3 = L.BatchNormalization(32)
                self.c4 = L.Convolution2D(32, 64, 3, pad=1, nobias=True)
                self.b4 = L.BatchNormalization(64)
                self.fc = L.Linear(64 * 8 * 8, 10)

        def forward(self, x):
            h = F.relu(self.b1(self.c1(x)))
            r = F.relu(self.b2(self.c2(h)))
            h = F.relu(h + self.b3(self.c3(r)))
            h = F.max_pooling_2d(h, 2)
            h = F.max_pooling_2d(F.relu(self.b4(self.c4(h))), 2)
            return self.fc(h)

    return BNConvNet()


def _bn_convnet_torch(torch):
    """The model of :func:`_bn_convnet` in PyTorch, with Chainer's
    batch-normalization epsilon (its decay 0.9 is PyTorch's momentum 0.1)."""
    nn = torch.nn
    F = torch.nn.functional

    class BNConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 32, 3, padding=1, bias=False)
            self.b1 = nn.BatchNorm2d(32, eps=2e-5)
            self.c2 = nn.Conv2d(32, 32, 3, padding=1, bias=False)
            self.b2 = nn.BatchNorm2d(32, eps=2e-5)
            self.c3 = nn.Conv2d(32, 32, 3, padding=1, bias=False)
            self.b3 = nn.BatchNorm2d(32, eps=2e-5)
            self.c4 = nn.Conv2d(32, 64, 3, padding=1, bias=False)
            self.b4 = nn.BatchNorm2d(64, eps=2e-5)
            self.fc = nn.Linear(64 * 8 * 8, 10)

        def forward(self, x):
            h = F.relu(self.b1(self.c1(x)))
            r = F.relu(self.b2(self.c2(h)))
            h = F.relu(h + self.b3(self.c3(r)))
            h = F.max_pool2d(h, 2)
            h = F.max_pool2d(F.relu(self.b4(self.c4(h))), 2)
            return self.fc(torch.flatten(h, 1))

    return BNConvNet()


def _chain10(x, w, relu, tanh, sigmoid):
    """Ten cheap elementwise ops (six arithmetic, four activations);
    written once for Chainer's Variables and PyTorch's tensors alike."""
    h = relu(x * w + x)
    h = tanh(h * w)
    h = sigmoid(h * x + w)
    return tanh(h + x)


# op_overhead is the workload's first name; add_grad is the one the
# performance targets use.
ADD_GRAD = ('op_overhead', 'add_grad')


def build(chainer, name, batch, device):
    """A ``step()`` for workload ``name`` on ``device``."""
    rng = numpy.random.RandomState(0)
    F = chainer.functions
    if name in ADD_GRAD:
        x = chainer.Variable(device.send(numpy.ones(1, numpy.float32)),
                             requires_grad=True)

        def step():
            x + x

        return step
    if name == 'chain10_fwd_bwd':
        x, w = (chainer.Variable(device.send(
            rng.normal(size=(8, 8)).astype(numpy.float32)))
            for _ in range(2))

        def step():
            x.cleargrad()
            w.cleargrad()
            F.sum(_chain10(x, w, F.relu, F.tanh, F.sigmoid)).backward()

        return step
    if name == 'tiny_mlp_step':
        model, shape = _mlp(chainer, (10, 10, 10, 10)), (batch, 10)
    elif name == 'mlp_step':
        model, shape = _mlp(chainer, (784, 1000, 1000, 10)), (batch, 784)
    elif name == 'conv_step':
        model, shape = _convnet(chainer), (batch, 3, 32, 32)
    elif name == 'alexnet_step':
        model, shape = _alexnet(chainer), (batch, 3, 64, 64)
    elif name == 'bn_convnet_step':
        model, shape = _bn_convnet(chainer), (batch, 3, 32, 32)
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
    if name in ADD_GRAD:
        x = torch.ones(1, requires_grad=True)

        def step():
            x + x

        return step
    if name == 'chain10_fwd_bwd':
        x, w = (torch.randn(8, 8, requires_grad=True) for _ in range(2))

        def step():
            x.grad = None
            w.grad = None
            _chain10(x, w, torch.relu, torch.tanh, torch.sigmoid).sum() \
                .backward()

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
    elif name == 'bn_convnet_step':
        model = _bn_convnet_torch(torch)
        x = torch.randn(batch, 3, 32, 32)
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
