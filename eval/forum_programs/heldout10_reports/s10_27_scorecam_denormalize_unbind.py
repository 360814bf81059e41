# source: https://github.com/haofanwang/Score-CAM/issues/28
# Score-CAM demo: after CAM + vanilla-gradient saliency (input_ requires grad), utils.denormalize iterates zip(denormalized[0], ...) and does channel.mul_(std).add_(mean)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

MEANS = [0.485, 0.456, 0.406]
STDS = [0.229, 0.224, 0.225]


class SmallVGG(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Linear(16 * 8 * 8, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class ScoreCAM:
    def __init__(self, model, target_layer):
        self.model = model.eval()
        self.activations = {}
        target_layer.register_forward_hook(self._save)

    def _save(self, module, inp, out):
        self.activations['value'] = out

    @torch.no_grad()
    def __call__(self, input_, class_idx=None):
        b, c, h, w = input_.size()
        logit = self.model(input_)
        if class_idx is None:
            class_idx = logit.max(1)[-1]
        activations = self.activations['value']
        k = activations.size(1)
        score_saliency_map = torch.zeros((1, 1, h, w))
        for i in range(k):
            saliency_map = F.interpolate(activations[:, i:i + 1], size=(h, w), mode='bilinear', align_corners=False)
            if saliency_map.max() == saliency_map.min():
                continue
            norm_saliency_map = (saliency_map - saliency_map.min()) / (saliency_map.max() - saliency_map.min())
            output = self.model(input_ * norm_saliency_map)
            score = F.softmax(output, dim=1)[0][class_idx]
            score_saliency_map += score * saliency_map
        score_saliency_map = F.relu(score_saliency_map)
        mn, mx = score_saliency_map.min(), score_saliency_map.max()
        return (score_saliency_map - mn).div(mx - mn + 1e-8)


def vanilla_gradient(model, input_, class_idx):
    model.zero_grad()
    out = model(input_)
    out[0, class_idx].backward()
    return input_.grad.abs().max(1, keepdim=True)[0]


def denormalize(tensor):
    denormalized = tensor.clone()
    for channel, mean, std in zip(denormalized[0], MEANS, STDS):
        channel.mul_(std).add_(mean)  # culprit
    return denormalized


def format_for_plotting(tensor):
    return tensor.squeeze(0).permute(1, 2, 0).detach()


def basic_visualize(input_, gradients, save_path=None):
    input_ = format_for_plotting(denormalize(input_))
    gradients = format_for_plotting(gradients)
    overlay = 0.5 * input_ + 0.5 * gradients
    print("overlay", tuple(overlay.shape), float(overlay.mean()))


model = SmallVGG()
input_ = torch.randn(1, 3, 32, 32).requires_grad_(True)  # saliency needs grads w.r.t. the image
scorecam = ScoreCAM(model, target_layer=model.features[3])
scorecam_map = scorecam(input_)
grad_map = vanilla_gradient(model, input_, class_idx=0)
basic_visualize(input_.cpu(), scorecam_map.type(torch.FloatTensor).cpu())
