# source: https://github.com/k2-fsa/k2/pull/1106 ("Removing inplace grad multiplication to allow `retain_graph` in backprop")
# Transducer-style model with separate encoder and joiner optimizers sharing one fused-gradient loss.
import torch
import torch.nn as nn

torch.manual_seed(0)


class FusedJoinerLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, targets):
        log_probs = logits.log_softmax(dim=-1)
        nll = -log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        grad = log_probs.exp()
        grad.scatter_add_(-1, targets.unsqueeze(-1), -torch.ones_like(nll).unsqueeze(-1))
        grad /= nll.numel()
        ctx.save_for_backward(grad)
        return nll.mean()

    @staticmethod
    def backward(ctx, ans_grad):
        (grad,) = ctx.saved_tensors
        return grad * ans_grad, None


class Encoder(nn.Module):
    def __init__(self, in_dim, hid):
        super().__init__()
        self.proj = nn.Linear(in_dim, hid)
        self.rnn = nn.LSTM(hid, hid, batch_first=True)

    def forward(self, x):
        out, _ = self.rnn(torch.relu(self.proj(x)))
        return out


class Joiner(nn.Module):
    def __init__(self, enc_dim, dec_dim, vocab):
        super().__init__()
        self.enc_proj = nn.Linear(enc_dim, 32)
        self.dec_proj = nn.Linear(dec_dim, 32)
        self.out = nn.Linear(32, vocab)

    def forward(self, enc, dec):
        return self.out(torch.tanh(self.enc_proj(enc).unsqueeze(2) + self.dec_proj(dec).unsqueeze(1)))


B, T, U, V = 2, 5, 3, 12
encoder, decoder, joiner = Encoder(10, 16), nn.Embedding(V, 8), Joiner(16, 8, V)
enc_params = list(encoder.parameters())
joint_params = list(decoder.parameters()) + list(joiner.parameters())
enc_opt = torch.optim.SGD(enc_params, lr=0.1)
joint_opt = torch.optim.Adam(joint_params, lr=1e-3)

for step in range(3):
    feats, labels = torch.randn(B, T, 10), torch.randint(1, V, (B, U))
    targets = torch.randint(0, V, (B, T, U))
    logits = joiner(encoder(feats), decoder(labels))
    loss = FusedJoinerLoss.apply(logits, targets)

    enc_opt.zero_grad()
    loss.backward(retain_graph=True, inputs=enc_params)
    joint_opt.zero_grad()
    loss.backward(inputs=joint_params)
    enc_opt.step()
    joint_opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
