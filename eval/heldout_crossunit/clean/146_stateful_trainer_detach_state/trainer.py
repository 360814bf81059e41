import torch


class StatefulTrainer:
    def __init__(self, cell, readout, lr=1e-2):
        self.cell, self.readout = cell, readout
        self.opt = torch.optim.Adam(list(cell.parameters()) + list(readout.parameters()), lr=lr)
        self.state = None

    def step(self, x, y):
        if self.state is None:
            self.state = torch.zeros(x.shape[0], self.readout.in_features)
        out, self.state = self.cell(x, self.state)
        loss = ((self.readout(out) - y) ** 2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.state = self.state.detach()
        return loss.item()
