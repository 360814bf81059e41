# source: discuss.pytorch.org thread "Custom RNN: filling a pre-allocated hidden-state tensor in a loop gives 'modified by an inplace operation'"
# each step writes h_t into the shared buffer, which bumps the version of the slice hs[t] that the previous step's Linear saved
import torch
import torch.nn as nn

torch.manual_seed(0)


class ElmanRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, x):
        seq_len, batch, _ = x.shape
        hs = torch.zeros(seq_len + 1, batch, self.hidden_size)
        for t in range(seq_len):
            hs[t + 1] = torch.tanh(self.i2h(x[t]) + self.h2h(hs[t]))  # culprit
        return hs[1:]


class SequenceClassifier(nn.Module):
    def __init__(self, input_size=3, hidden_size=6, num_classes=2):
        super().__init__()
        self.rnn = ElmanRNN(input_size, hidden_size)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        outputs = self.rnn(x)
        return self.fc(outputs[-1])


def train(model, data, labels, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(data), labels)
        loss.backward()
        opt.step()
        print(epoch, loss.item())


data = torch.randn(5, 4, 3)
labels = torch.tensor([0, 1, 1, 0])
train(SequenceClassifier(), data, labels)
