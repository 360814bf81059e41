# source: https://github.com/jacobgil/pytorch-grad-cam/pull/183 ("Use forward hook instead of backward hook to avoid error")
# Grad-CAM on a small CNN with in-place ReLUs: a forward hook stores activations and registers a tensor hook for gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActivationsAndGradients:
    """Class for extracting activations and registering gradients from targeted intermediate layers."""

    def __init__(self, model, target_layers):
        self.model = model
        self.gradients, self.activations, self.handles = [], [], []
        for target_layer in target_layers:
            self.handles.append(target_layer.register_forward_hook(self.save_activation))
            self.handles.append(target_layer.register_forward_hook(self.save_gradient))

    def save_activation(self, module, input, output):
        self.activations.append(output.detach().clone())

    def save_gradient(self, module, input, output):
        def _store_grad(grad):
            self.gradients = [grad.detach()] + self.gradients
        output.register_hook(_store_grad)

    def __call__(self, x):
        self.gradients, self.activations = [], []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


class SmallVGG(nn.Module):
    def __init__(self, num_classes=6):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.classifier = nn.Sequential(nn.Dropout(0.1), nn.Linear(32, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


def grad_cam(model, target_layer, input_tensor, target_category):
    extractor = ActivationsAndGradients(model, [target_layer])
    output = extractor(input_tensor)
    loss = output[torch.arange(output.size(0)), target_category].sum()
    model.zero_grad()
    loss.backward(retain_graph=True)
    activations, grads = extractor.activations[0], extractor.gradients[0]
    weights = grads.mean(dim=(2, 3), keepdim=True)
    cam = F.relu((weights * activations).sum(dim=1))
    cam = cam / (cam.amax(dim=(1, 2), keepdim=True) + 1e-7)
    extractor.release()
    return F.interpolate(cam[:, None], size=input_tensor.shape[-2:], mode="bilinear", align_corners=False)[:, 0]


model = SmallVGG().eval()
images = torch.randn(2, 3, 16, 16)
with torch.no_grad():
    preds = model(images).argmax(dim=1)
cam = grad_cam(model, model.features[5], images, preds)
print("cam shape", tuple(cam.shape), "mean", round(cam.mean().item(), 4))
