#!/usr/bin/env python3
"""Folds a PP-OCRv4 ONNX model's constant arithmetic into its convolutions, so that ONNX Runtime runs fewer passes
over each activation. The same function, computed in fewer steps; no weight is learned or dropped.

    fold_model.py IN.onnx OUT.onnx [CHARACTERS.txt]

With CHARACTERS.txt (a recognition model's dictionary, one character a line, as PaddleOCR ships it beside models
exported without one), the list is written into the model's metadata under "character", where Shoebox's reader
finds a model's classes: one self-describing file per model. A model with no folds to make (PP-OCRv6's are exported
with them made) comes out with its graph as it was.

PaddleOCR's PPLCNetV3 backbone, as paddle2onnx exported it, runs nine elementwise operators between two
convolutions: a learnable affine block (Mul by a scalar, Add a scalar), hardswish spelt out (Add 3, Clip 0..6, Mul,
Div 6), and a second affine block. About half of the recognition model's time went to them (ONNX Runtime's profiler,
docs/benchmarks.md). Rewritten here, exactly:

  A. conv, then Mul s and Add b (scalars):  the conv's weights times s, its bias times s plus b.
  B. x * clip(x + 3, 0, 6) / 6:             x * HardSigmoid(x) with alpha 1/6, beta 1/2 (the same values).
  C. a scalar Mul s2 after that hardswish:  the conv before it scaled by s2 too, and alpha 1/(6 s2), since
                                            s2 * x * hsig(x) = (s2 x) * hsig((s2 x) / s2).
  D. a scalar Add b before a 1x1 convolution without padding and in one group: b times the sum of each output's
     weights, added to that output's bias. (Not before a padded convolution: its zero padding is not b.)

The arithmetic is done in double precision in a fixed order and rounded to float32 at the end, so the output is the
same bytes on every machine (readers/files.sha256 pins it). Standard library only; the input is one of the pinned
model files, and is still read as untrusted: bounded in size, and anything this script does not expect stops it
with a message and exit 1, writing nothing.
"""

import array
import struct
import sys

MAX_BYTES = 64 << 20
FLOAT = 1  # TensorProto.DataType.FLOAT


class Refused(Exception):
    pass


# --- protocol buffers, wire format only ---------------------------------------------------------------------------


def varint(data, at):
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise Refused("a varint runs past the end of its message")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data):
    """A message's fields in order, as (number, wire type, value): ints for varints, bytes otherwise."""
    at, out = 0, []
    while at < len(data):
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 2:
            size, at = varint(data, at)
            if at + size > len(data):
                raise Refused("a field runs past the end of its message")
            value, at = bytes(data[at : at + size]), at + size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if at + size > len(data):
                raise Refused("a field runs past the end of its message")
            value, at = bytes(data[at : at + size]), at + size
        else:
            raise Refused(f"wire type {wire} is not one ONNX uses")
        out.append((number, wire, value))
    return out


def encode_varint(value):
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | 0x80 if value else low)
        if not value:
            return bytes(out)


def encode(message):
    out = bytearray()
    for number, wire, value in message:
        out += encode_varint(number << 3 | wire)
        if wire == 0:
            out += encode_varint(value)
        elif wire == 2:
            out += encode_varint(len(value)) + value
        else:
            out += value
    return bytes(out)


def strings(message, number):
    return [value.decode() for n, wire, value in message if n == number and wire == 2]


# --- ONNX messages (onnx.proto field numbers) ---------------------------------------------------------------------


def read_tensor(data):
    """(dims, float32 values) of a TensorProto, or None when it holds something other than float32."""
    message = fields(data)
    types = [value for n, wire, value in message if n == 2 and wire == 0]
    if types != [FLOAT]:
        return None
    dims = []
    for n, wire, value in message:
        if n == 1 and wire == 0:
            dims.append(value)
        elif n == 1 and wire == 2:  # packed
            at = 0
            while at < len(value):
                dim, at = varint(value, at)
                dims.append(dim)
    values = array.array("f")
    raw = [value for n, wire, value in message if n == 9 and wire == 2]
    if raw:
        values.frombytes(raw[0])
    else:
        for n, wire, value in message:
            if n == 4 and wire in (2, 5):
                values.frombytes(value)
    if sys.byteorder != "little":
        values.byteswap()
    count = 1
    for dim in dims:
        count *= dim
    if count != len(values):
        raise Refused("a tensor's values do not match its dimensions")
    return dims, values


def write_tensor(name, dims, values):
    data = values
    if sys.byteorder != "little":
        data = array.array("f", values)
        data.byteswap()
    return encode([(1, 0, dim) for dim in dims] + [(2, 0, FLOAT), (8, 2, name.encode()), (9, 2, data.tobytes())])


def float_attribute(name, value):
    return encode([(1, 2, name.encode()), (2, 5, struct.pack("<f", value)), (20, 0, 1)])


class Node:
    def __init__(self, data):
        message = fields(data)
        self.inputs = strings(message, 1)
        self.outputs = strings(message, 2)
        self.name = strings(message, 3)
        ops = strings(message, 4)
        if len(ops) != 1:
            raise Refused("a node without one operator type")
        self.op = ops[0]
        self.domain = strings(message, 7)
        self.attributes = {}
        for n, wire, value in message:
            if n == 5 and wire == 2:
                names = strings(fields(value), 1)
                if len(names) != 1:
                    raise Refused("an attribute without one name")
                self.attributes[names[0]] = value
        self.rest = [(n, wire, value) for n, wire, value in message if n not in (1, 2, 3, 4, 5, 7)]

    def encode(self):
        message = [(1, 2, name.encode()) for name in self.inputs] + [(2, 2, name.encode()) for name in self.outputs]
        message += [(3, 2, name.encode()) for name in self.name] + [(4, 2, self.op.encode())]
        message += [(5, 2, value) for value in self.attributes.values()]
        message += [(7, 2, name.encode()) for name in self.domain] + self.rest
        return encode(message)

    def ints(self, name):
        """An attribute's integers (ints, or its one int), [] when absent."""
        if name not in self.attributes:
            return []
        message = fields(self.attributes[name])
        return [value for n, wire, value in message if n in (3, 8) and wire == 0]


# --- the folds ----------------------------------------------------------------------------------------------------


class Graph:
    def __init__(self, message):
        self.message = message
        self.nodes = [Node(value) for n, wire, value in message if n == 1 and wire == 2]
        self.outputs = set()
        for n, wire, value in message:
            if n == 12 and wire == 2:
                self.outputs.update(strings(fields(value), 1))
        self.constants = {}  # output name -> (node, dims, values) of a float Constant
        for node in self.nodes:
            if node.op == "Constant" and "value" in node.attributes and len(node.outputs) == 1:
                tensors = [value for n, wire, value in fields(node.attributes["value"]) if n == 5 and wire == 2]
                tensor = read_tensor(tensors[0]) if len(tensors) == 1 else None
                if tensor:
                    self.constants[node.outputs[0]] = (node, *tensor)
        self.removed = set()
        self.counts = {"A": 0, "B": 0, "C": 0, "D": 0}

    def consumers(self, name):
        return [node for node in self.nodes if id(node) not in self.removed and name in node.inputs]

    def scalar(self, name):
        constant = self.constants.get(name)
        return constant[2][0] if constant and len(constant[2]) == 1 else None

    def scalar_and_other(self, node):
        """(the scalar constant, the other input) of a two-input node with one scalar constant input."""
        if len(node.inputs) != 2:
            return None, None
        a, b = node.inputs
        if self.scalar(a) is not None and self.scalar(b) is None:
            return self.scalar(a), b
        if self.scalar(b) is not None and self.scalar(a) is None:
            return self.scalar(b), a
        return None, None

    def only(self, name, op):
        """The one node that reads `name`, when it is an `op` and `name` is no graph output."""
        readers = self.consumers(name)
        if len(readers) == 1 and readers[0].op == op and name not in self.outputs:
            return readers[0]
        return None

    def set_constant(self, name, dims, values):
        node = self.constants[name][0]
        message = [(n, wire, value) for n, wire, value in fields(node.attributes["value"]) if n != 5]
        node.attributes["value"] = encode(message + [(5, 2, write_tensor(name, dims, values))])
        self.constants[name] = (node, dims, values)

    def affine_after(self, output):
        """A: the scalar Mul and Add that read `output`, as (scale, shift, their output), or None."""
        mul = self.only(output, "Mul")
        if not mul:
            return None
        scale, other = self.scalar_and_other(mul)
        add = self.only(mul.outputs[0], "Add")
        if scale is None or other != output or not add:
            return None
        shift, other = self.scalar_and_other(add)
        if shift is None or other != mul.outputs[0] or add.outputs[0] in self.outputs:
            return None
        self.removed.update([id(mul), id(add)])
        return scale, shift, add.outputs[0]

    def hardswish_on(self, x):
        """B and C: x * clip(x + 3, 0, 6) / 6 read from `x` alone, rewritten in place; the scale C folds, or 1."""
        readers = self.consumers(x)
        adds = [node for node in readers if node.op == "Add"]
        muls = [node for node in readers if node.op == "Mul"]
        if len(readers) != 2 or len(adds) != 1 or len(muls) != 1 or x in self.outputs:
            return 1.0
        add, mul = adds[0], muls[0]
        if self.scalar_and_other(add) != (3.0, x):
            return 1.0
        clip = self.only(add.outputs[0], "Clip")
        if not clip or len(clip.inputs) != 3 or clip.inputs[0] != add.outputs[0]:
            return 1.0
        if self.scalar(clip.inputs[1]) != 0.0 or self.scalar(clip.inputs[2]) != 6.0 or sorted(mul.inputs) != sorted([x, clip.outputs[0]]):
            return 1.0
        div = self.only(mul.outputs[0], "Div")
        if not div or len(div.inputs) != 2 or div.inputs[0] != mul.outputs[0] or self.scalar(div.inputs[1]) != 6.0:
            return 1.0
        scale, result = 1.0, div.outputs[0]
        after = self.only(div.outputs[0], "Mul")
        if after:
            s2, other = self.scalar_and_other(after)
            if s2 is not None and s2 != 0.0 and other == div.outputs[0] and after.outputs[0] not in self.outputs:
                scale, result = s2, after.outputs[0]
                self.removed.add(id(after))
                self.counts["C"] += 1
        add.op, add.inputs, add.outputs = "HardSigmoid", [x], [clip.outputs[0]]
        add.attributes = {"alpha": float_attribute("alpha", 1.0 / (6.0 * scale)), "beta": float_attribute("beta", 0.5)}
        mul.outputs = [result]
        self.removed.update([id(clip), id(div)])
        self.counts["B"] += 1
        return scale

    def fold_convolutions(self):
        for conv in [node for node in self.nodes if node.op == "Conv" and len(node.inputs) == 3]:
            weights, bias = conv.inputs[1], conv.inputs[2]
            if weights not in self.constants or bias not in self.constants:
                continue
            if len(self.consumers(weights)) != 1 or len(self.consumers(bias)) != 1:
                continue
            scale, shift = 1.0, 0.0
            affine = self.affine_after(conv.outputs[0])
            if affine:
                scale, shift, conv.outputs = affine[0], affine[1], [affine[2]]
                self.counts["A"] += 1
            post = self.hardswish_on(conv.outputs[0])
            if (scale, shift, post) == (1.0, 0.0, 1.0):
                continue
            _, wdims, wvalues = self.constants[weights]
            _, bdims, bvalues = self.constants[bias]
            factor = scale * post
            self.set_constant(weights, wdims, array.array("f", [value * factor for value in wvalues]))
            self.set_constant(bias, bdims, array.array("f", [(value * scale + shift) * post for value in bvalues]))

    def fold_shifts_into_pointwise(self):
        for add in [node for node in self.nodes if node.op == "Add" and id(node) not in self.removed]:
            shift, other = self.scalar_and_other(add)
            conv = self.only(add.outputs[0], "Conv") if shift is not None else None
            if not conv or len(conv.inputs) != 3 or conv.inputs[0] != add.outputs[0]:
                continue
            if conv.ints("kernel_shape") != [1, 1] or any(conv.ints("pads")) or conv.ints("group") not in ([], [1]):
                continue
            weights, bias = conv.inputs[1], conv.inputs[2]
            if weights not in self.constants or bias not in self.constants:
                continue
            if len(self.consumers(weights)) != 1 or len(self.consumers(bias)) != 1:
                continue
            _, wdims, wvalues = self.constants[weights]
            _, bdims, bvalues = self.constants[bias]
            if len(wdims) != 4 or bdims != [wdims[0]]:
                continue
            per = len(wvalues) // wdims[0]
            sums = [sum(float(wvalues[o * per + c]) for c in range(per)) for o in range(wdims[0])]
            self.set_constant(bias, bdims, array.array("f", [bvalues[o] + shift * sums[o] for o in range(wdims[0])]))
            conv.inputs[0] = other
            self.removed.add(id(add))
            self.counts["D"] += 1

    def encode(self):
        kept = [node for node in self.nodes if id(node) not in self.removed]
        used = {name for node in kept for name in node.inputs} | self.outputs
        kept = [node for node in kept if not (node.op == "Constant" and node.outputs[0] not in used)]
        message, placed = [], False
        for n, wire, value in self.message:
            if n == 1 and wire == 2:
                if not placed:
                    message += [(1, 2, node.encode()) for node in kept]
                    placed = True
            else:
                message.append((n, wire, value))
        return encode(message), len(self.nodes), len(kept)


def fold(data):
    model = fields(data)
    graphs = [at for at, (n, wire, _) in enumerate(model) if n == 7 and wire == 2]
    if len(graphs) != 1:
        raise Refused("the file is not an ONNX model with one graph")
    graph = Graph(fields(model[graphs[0]][2]))
    graph.fold_convolutions()
    graph.fold_shifts_into_pointwise()
    encoded, before, after = graph.encode()
    model[graphs[0]] = (7, 2, encoded)
    return encode(model), before, after, graph.counts


MAX_CHARACTERS_BYTES = 1 << 20


def with_characters(data, text):
    """The model with `text` (one character a line) as its metadata's "character" entry, replacing one it had."""
    lines = text.replace("\r\n", "\n").split("\n")  # the PP-OCRv6 tiny dictionary's lines end in CR LF
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or any(line == "" or "\r" in line for line in lines) or len(set(lines)) != len(lines):
        raise Refused("the character list must hold one character a line, each once, no empty line")
    entry = encode([(1, 2, b"character"), (2, 2, "\n".join(lines).encode())])
    model = [(n, wire, value) for n, wire, value in fields(data) if not (n == 14 and wire == 2 and strings(fields(value), 1) == ["character"])]
    return encode(model + [(14, 2, entry)])


def read_bounded(path, bound):
    with open(path, "rb") as file:
        data = file.read(bound + 1)
    if len(data) > bound:
        raise Refused(f"{path} is larger than {bound >> 20} MiB")
    return data


def main(arguments):
    if len(arguments) not in (3, 4):
        print("usage: fold_model.py IN.onnx OUT.onnx [CHARACTERS.txt]", file=sys.stderr)
        return 2
    source, target = arguments[1], arguments[2]
    try:
        data = read_bounded(source, MAX_BYTES)
        folded, before, after, counts = fold(data)
        if len(arguments) == 4:
            folded = with_characters(folded, read_bounded(arguments[3], MAX_CHARACTERS_BYTES).decode("utf-8"))
    except (Refused, UnicodeDecodeError) as why:
        print(f"fold_model: {source} was not folded: {why}", file=sys.stderr)
        return 1
    with open(target, "wb") as file:
        file.write(folded)
    print(
        f"fold_model: {source}: {before} nodes to {after} (affine blocks {counts['A']}, hardswish {counts['B']}, "
        f"scales after it {counts['C']}, shifts into 1x1 convolutions {counts['D']})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
