# source: https://github.com/haofanwang/Score-CAM/issues/28 ("RuntimeError: Output 0 of UnbindBackward is a view and is being modified inplace. ...")
# Score-CAM saliency for a small CNN, then prepares the input image and heat-map for plotting.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def denormalize(tensor):
    means = [0.485, 0.456, 0.406]
    stds = [0.229, 0.224, 0.225]
    denormalized = tensor.clone()
    for channel, mean, std in zip(denormalized[0], means, stds):
        channel.mul_(std).add_(mean)  # culprit
    return denormalized


def format_for_plotting(tensor):
    t = tensor.squeeze(0) if tensor.dim() == 4 else tensor
    return t.permute(1, 2, 0) if t.dim() == 3 and t.shape[0] == 3 else t


class Net(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3)))


class ScoreCAM:
    def __init__(self, model, layer):
        self.model, self.activations = model, None
        layer.register_forward_hook(lambda m, i, o: setattr(self, "activations", o))

    def __call__(self, input_, class_idx=None):
        b, c, h, w = input_.size()
        logit = self.model(input_)
        if class_idx is None:
            class_idx = logit.argmax(dim=1).item()
        # vanilla gradient used as a sanity check next to the score map
        logit[0, class_idx].backward()
        activations = self.activations
        score_saliency_map = torch.zeros(1, 1, h, w)
        with torch.no_grad():
            for i in range(activations.size(1)):
                saliency_map = F.interpolate(activations[:, i:i + 1], size=(h, w), mode="bilinear", align_corners=False)
                if saliency_map.max() == saliency_map.min():
                    continue
                norm = (saliency_map - saliency_map.min()) / (saliency_map.max() - saliency_map.min())
                score = F.softmax(self.model(input_ * norm), dim=1)[0, class_idx]
                score_saliency_map += score * saliency_map
        score_saliency_map = F.relu(score_saliency_map)
        mn, mx = score_saliency_map.min(), score_saliency_map.max()
        return (score_saliency_map - mn) / (mx - mn + 1e-8)


def basic_visualize(input_, saliency):
    img = format_for_plotting(denormalize(input_))
    heat = format_for_plotting(saliency[0])
    print("image", tuple(img.shape), "heatmap", tuple(heat.shape), "grad norm", input_.grad.norm().item())


model = Net().eval()
input_ = torch.randn(1, 3, 16, 16, requires_grad=True)
scorecam = ScoreCAM(model, model.features[3])
scorecam_map = scorecam(input_)
basic_visualize(input_, scorecam_map)
