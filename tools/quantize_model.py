#!/usr/bin/env python3
"""Quantises a PP-OCR recognition model (PP-OCRv6 small or tiny, ONNX) to int8 with ONNX Runtime's static QDQ
quantisation, calibrated on text lines cut from SROIE receipts exactly as Shoebox's second reader cuts and scales
them (PPOCRLineReader.read, ppocr.c): the activations' ranges come from the lines the model will read.

    quantize_model.py IN.onnx OUT.onnx SROIE_DIR [--half even|odd|all] [--lines N] [--method minmax|percentile|entropy]
                      [--percentile P] [--activations quint8|qint8] [--ops Conv,MatMul,...] [--exclude NODE,...]
                      [--quantize-softmax] [--no-preprocess] [--cache FILE.json]

SROIE_DIR holds <ID>.jpg and box/<ID>.txt (the devset's sroie/ folder). --half even takes the receipts whose ID ends
in an even digit (half A) only, so that half B stays unseen for measuring. N lines (default 400) are taken spread
over the width the model sees (one in each of N width quantiles of all the half's lines), in a fixed order.

Weights are int8, per output channel; activations QUInt8 by default (ONNX Runtime's u8s8 kernels, VNNI on x86; QInt8
activations leave half the convolutions unfused on x86 and run at float speed). Calibration: percentile 99.999 by
default (better than minmax and entropy on the devset). The final Softmax stays float (the probabilities Shoebox
averages into confidences stay continuous). A model below opset 13 is converted to 13 first (per-channel axis).
The model's metadata (its "character" list, which Shoebox reads its classes from) is carried over.
Needs onnx, onnxruntime (1.17 or later), numpy and Pillow.
"""

import argparse
import math
import os
import sys
import tempfile

import numpy as np
import onnx
import onnx.version_converter
from PIL import Image
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

HEIGHT, MIN_WIDTH, MAX_WIDTH = 48, 320, 2400
READ_MEGAPIXELS = 16.0


# --- Shoebox's line pipeline (ImageLoader, PPOCRLineReader.read, ppocr.c) ----------------------------------------


def load_gray(path):
    """(the gray page, its reduction) as ImageLoader gives a JPEG: over 16 MP its luminance decoded 1/2, 1/4 or 1/8
    (the largest keeping 8 MP), else RGB made gray with leptonica's weights 0.3, 0.5, 0.2."""
    image = Image.open(path)
    width, height = image.size
    mp = width * height / 1e6
    if mp > READ_MEGAPIXELS:
        reduction = next((r for r in (8, 4, 2) if mp / (r * r) >= READ_MEGAPIXELS / 2), 1)
        image.draft("L", (width // reduction, height // reduction))
        return np.asarray(image.convert("L"), dtype=np.uint8), reduction
    if image.mode == "L":
        return np.asarray(image, dtype=np.uint8), 1
    rgb = np.asarray(image.convert("RGB"), dtype=np.float32)
    return np.clip(np.floor(0.3 * rgb[..., 0] + 0.5 * rgb[..., 1] + 0.2 * rgb[..., 2] + 0.5), 0, 255).astype(np.uint8), 1


def box_lines(path):
    """The axis-aligned (left, top, right, bottom) of each annotated line of a SROIE box file."""
    boxes = []
    with open(path, encoding="utf-8", errors="replace") as file:
        for row in file.read().splitlines():
            parts = row.split(",", 8)
            try:
                numbers = [int(p.strip()) for p in parts[:8]]
            except ValueError:
                continue
            if len(parts) != 9 or not parts[8].strip():
                continue
            xs, ys = numbers[0::2], numbers[1::2]
            if max(xs) > min(xs) and max(ys) > min(ys):
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def crop_line(page, left, top, right, bottom):
    """The strip PPOCRLineReader.read cuts for one box (pad max(2, h/5) rows, max(4, h) columns), or None."""
    page_h, page_w = page.shape
    h = bottom - top
    pad, side = max(2, h // 5), max(4, h)
    top, bottom = max(0, top - pad), min(page_h, bottom + pad)
    left, right = max(0, left - side), min(page_w, right + side)
    if bottom - top < 4 or right - left < 4 or (right - left) * (bottom - top) > 16_000_000:
        return None
    return np.ascontiguousarray(page[top:bottom, left:right])


def content_width(w, h):
    return min(max(int(math.ceil(HEIGHT * (w / h))), 1), MAX_WIDTH)


def _axis(src_n, dst_n):
    f = (np.arange(dst_n, dtype=np.float32) + np.float32(0.5)) * (np.float32(src_n) / np.float32(dst_n)) - np.float32(0.5)
    f = np.maximum(f, np.float32(0))
    i0 = np.minimum(f.astype(np.int64), src_n - 1)
    i1 = np.where(i0 + 1 < src_n, i0 + 1, src_n - 1)
    return i0, i1, (f - i0.astype(np.float32)).astype(np.float32)


def preprocess(gray):
    """ppocr_read_line's input for a uint8 strip: [1, 3, 48, max(320, content)] float32."""
    h, w = gray.shape
    content = content_width(w, h)
    y0, y1, ay = _axis(h, HEIGHT)
    x0, x1, ax = _axis(w, content)
    src = gray.astype(np.float32)
    r0, r1 = src[y0], src[y1]
    one, ax, ay = np.float32(1), ax[None, :], ay[:, None]
    v = (one - ay) * ((one - ax) * r0[:, x0] + ax * r0[:, x1]) + ay * ((one - ax) * r1[:, x0] + ax * r1[:, x1])
    plane = np.zeros((HEIGHT, max(content, MIN_WIDTH)), dtype=np.float32)
    plane[:, :content] = (v / np.float32(255) - np.float32(0.5)) / np.float32(0.5)
    return np.ascontiguousarray(np.broadcast_to(plane, (1, 3) + plane.shape))


def calibration_lines(sroie, half, count):
    """`count` strips from the receipts of `half`, one at each of `count` quantiles of the scaled width."""
    ids = sorted(f[:-4] for f in os.listdir(sroie) if f.endswith(".jpg"))
    want = {"even": (0,), "odd": (1,), "all": (0, 1)}[half]
    strips = []
    for rid in ids:
        if not rid[-1].isdigit() or int(rid[-1]) % 2 not in want or not os.path.exists(f"{sroie}/box/{rid}.txt"):
            continue
        page, r = load_gray(f"{sroie}/{rid}.jpg")
        for left, top, right, bottom in box_lines(f"{sroie}/box/{rid}.txt"):
            strip = crop_line(page, left // r, top // r, right // r, bottom // r)
            if strip is not None:
                strips.append(strip)
    if not strips:
        raise SystemExit(f"quantize_model: no annotated lines in {sroie} (half {half})")
    order = sorted(range(len(strips)), key=lambda i: (content_width(strips[i].shape[1], strips[i].shape[0]), i))
    picks = sorted({order[min(len(order) - 1, int((k + 0.5) * len(order) / count))] for k in range(count)})
    return [strips[i] for i in picks]


class LineReader(CalibrationDataReader):
    """The strips one at a time (batch 1, each its own width, as Shoebox runs them); set_range lets ONNX Runtime
    calibrate in slices (CalibStridedMinMax), so the histogram methods do not hold every activation at once."""

    def __init__(self, strips, input_name):
        self.strips, self.name = strips, input_name
        self.start, self.end = 0, len(strips)
        self.at = 0

    def __len__(self):
        return len(self.strips)

    def set_range(self, start_index, end_index):
        self.start, self.end, self.at = start_index, min(end_index, len(self.strips)), start_index

    def get_next(self):
        if self.at >= self.end:
            return None
        self.at += 1
        return {self.name: preprocess(self.strips[self.at - 1])}

    def rewind(self):
        self.at = self.start


METHODS = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile, "entropy": CalibrationMethod.Entropy}
TYPES = {"quint8": QuantType.QUInt8, "qint8": QuantType.QInt8}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("sroie", help="folder with <ID>.jpg and box/<ID>.txt")
    parser.add_argument("--half", choices=["even", "odd", "all"], default="even")
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--method", choices=sorted(METHODS), default="percentile")
    parser.add_argument("--percentile", type=float, default=99.999)
    parser.add_argument("--activations", choices=sorted(TYPES), default="quint8")
    parser.add_argument("--ops", default="", help="operator types to quantise, comma separated (default: all ONNX Runtime can)")
    parser.add_argument("--exclude", default="", help="node names to leave in float, comma separated")
    parser.add_argument("--quantize-softmax", action="store_true",
                        help="quantise the final Softmax too (default: left in float: as fast or faster, and the probabilities stay continuous)")
    parser.add_argument("--no-preprocess", action="store_true", help="skip quant_pre_process (shape inference, graph optimisation)")
    parser.add_argument("--stride", type=int, default=50, help="calibration lines per slice (minmax; the histogram methods take one at a time)")
    parser.add_argument("--cache", default=None, help="calibration cache (JSON): reused when present, written when not")
    args = parser.parse_args(argv[1:])

    original = onnx.load(args.input)
    metadata = {p.key: p.value for p in original.metadata_props}
    input_name = original.graph.input[0].name
    strips = calibration_lines(args.sroie, args.half, args.lines)
    # The histogram methods stack a slice's activations into one array: each line (its own width) is a slice.
    stride = 1 if args.method != "minmax" else max(1, min(args.stride, len(strips)))
    strips = strips[: len(strips) - len(strips) % stride]  # CalibStridedMinMax wants whole slices
    print(f"quantize_model: {len(strips)} calibration lines from {args.sroie} ({args.half})", file=sys.stderr)

    with tempfile.TemporaryDirectory(prefix="quantize_model.") as tmp:
        source = args.input
        opset = next(o.version for o in original.opset_import if o.domain in ("", "ai.onnx"))
        if opset < 13:  # per-channel QuantizeLinear/DequantizeLinear (their axis) need opset 13
            source = os.path.join(tmp, "opset13.onnx")
            onnx.save(onnx.version_converter.convert_version(original, 13), source)
        if not args.no_preprocess:
            # Symbolic shape inference cannot follow PP-OCRv6's dynamic reshapes (and, failing, leaves
            # sym_shape_infer_temp.onnx and a .data file in the working directory): ONNX shape inference only.
            quant_pre_process(source, os.path.join(tmp, "pre.onnx"), skip_symbolic_shape=True)
            source = os.path.join(tmp, "pre.onnx")
        exclude = [n for n in args.exclude.split(",") if n]
        if not args.quantize_softmax:
            graph = onnx.load(source).graph
            outputs = {o.name for o in graph.output}
            exclude += [n.name for n in graph.node if n.op_type == "Softmax" and set(n.output) & outputs]
        extra = {"CalibStridedMinMax": stride, "ActivationSymmetric": False, "WeightSymmetric": True}
        if args.method == "percentile":
            extra["CalibPercentile"] = args.percentile
        quantize_static(
            source,
            os.path.join(tmp, "q.onnx"),
            LineReader(strips, input_name),
            quant_format=QuantFormat.QDQ,
            activation_type=TYPES[args.activations],
            weight_type=QuantType.QInt8,
            per_channel=True,
            calibrate_method=METHODS[args.method],
            op_types_to_quantize=[op for op in args.ops.split(",") if op] or None,
            nodes_to_exclude=exclude or None,
            extra_options=extra,
            calibration_cache_path=args.cache,
        )
        quantized = onnx.load(os.path.join(tmp, "q.onnx"))
    del quantized.metadata_props[:]
    for key, value in metadata.items():
        entry = quantized.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(quantized, args.output)
    print(f"quantize_model: {args.output}: {os.path.getsize(args.output)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
