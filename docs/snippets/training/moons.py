from glassgrad.data import make_moons
from glassgrad.nn import MLP, train

points, labels = make_moons(60, noise=0.1, seed=0)  # labels: -1, +1
model = MLP(2, [8, 8, 1], rng=3)  # ReLU layers of 8, linear output
initial = [p.data for p in model.parameters()]  # for the PyTorch run
STEPS = 40
ALPHA = 1e-4  # weight of the L2 penalty


def moons_loss():
    scores = [model(point) for point in points]
    # Hinge loss: 0 once a point is on its side by a margin of 1.
    hinge = [(1 - label * score).relu()
             for label, score in zip(labels, scores)]
    penalty = sum(p * p for p in model.parameters())
    return sum(hinge) / len(hinge) + ALPHA * penalty


def learning_rate(step):
    return 1.0 - 0.9 * step / STEPS  # from 1.0 down towards 0.1


moons_losses = train(model.parameters(), moons_loss,
                     steps=STEPS, learning_rate=learning_rate)
