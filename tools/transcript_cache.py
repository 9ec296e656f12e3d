#!/usr/bin/env python3
"""Reading losses from parsing misses, for every field and the line items (`make regress-transcripts`).

Makes a copy of the regress OCR cache (.build/ocr-cache, filled by `make regress-dev`) in which every SROIE page of
../shared/devset is replaced by the data set's own line transcripts (sroie/box/<ID>.txt: four corners and the text of
each printed segment), the segments of one printed line joined into one line, left to right, each word boxed in its
share of the segment. `shoebox regress --ocr-cache` on that copy reads the receipts as a perfect reader would; what it
still gets wrong is parsing, what it gets right and the OCR run does not is reading. The devset is only read.

Usage: tools/transcript_cache.py [--devset DIR] [--cache DIR] --out DIR
"""
import argparse
import glob
import hashlib
import json
import os
import sys


def segments(path):
    """The transcript's segments as (left, top, right, bottom, text), sorted top to bottom."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for row in f:
            parts = row.rstrip("\n").split(",", 8)
            if len(parts) < 9 or not parts[8].strip():
                continue
            try:
                xs = [int(parts[i]) for i in (0, 2, 4, 6)]
                ys = [int(parts[i]) for i in (1, 3, 5, 7)]
            except ValueError:
                continue
            out.append((min(xs), min(ys), max(xs), max(ys), parts[8].strip()))
    return sorted(out, key=lambda s: ((s[1] + s[3]) / 2, s[0]))


def jpeg_width(path):
    """The width a JPEG's frame header (SOF) states, or None."""
    with open(path, "rb") as f:
        data = f.read()
    at = 2
    while at + 9 < len(data) and data[at] == 0xFF:
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7:at + 9], "big")
        at += 2 + length
    return None


def scaled(read, reduction):
    """The lines with every box divided by `reduction`: a photo Shoebox decoded smaller (1/2, 1/4, 1/8) is cached at
    that size, while the transcript's corners are in the file's pixels."""
    if reduction == 1:
        return read
    for line in read:
        for word in line["words"]:
            word["box"] = {k: v // reduction for k, v in word["box"].items()}
    return read


def lines(path):
    """OCR lines (the cache's shape) from a transcript: segments whose middles are within half a height are one line."""
    rows = []
    for s in segments(path):
        middle, height = (s[1] + s[3]) / 2, s[3] - s[1]
        for row in rows:
            row_middle = sum((x[1] + x[3]) / 2 for x in row) / len(row)
            if abs(row_middle - middle) < 0.5 * min(height, max(x[3] - x[1] for x in row)):
                row.append(s)
                break
        else:
            rows.append([s])
    out = []
    for row in rows:
        words = []
        for left, top, right, bottom, text in sorted(row):
            n, at = max(1, len(text)), 0
            for token in text.split():
                start = text.index(token, at)
                at = start + len(token)
                words.append({
                    "text": token, "confidence": 95.0,
                    "box": {"left": left + (right - left) * start // n, "right": left + (right - left) * at // n,
                            "top": top, "bottom": bottom}})
        out.append({"words": words})
    return sorted(out, key=lambda line: min(w["box"]["top"] for w in line["words"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--devset", default="../shared/devset")
    parser.add_argument("--cache", default=".build/ocr-cache")
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    sroie = os.path.join(a.devset, "sroie")
    if not os.path.isdir(os.path.join(sroie, "box")) or not os.path.isdir(a.cache):
        sys.exit(f"transcript_cache: needs {sroie}/box and the OCR cache {a.cache} (run `make regress-dev` first)")
    by_hash = {}
    for image in glob.glob(os.path.join(sroie, "*.jpg")):
        with open(image, "rb") as f:
            by_hash[hashlib.sha256(f.read()).hexdigest()] = os.path.splitext(os.path.basename(image))[0]
    os.makedirs(a.out, exist_ok=True)
    replaced = 0
    for entry in glob.glob(os.path.join(a.cache, "*.json")):
        with open(entry) as f:
            cached = json.load(f)
        document = by_hash.get(os.path.basename(entry).split("-")[0])
        transcript = document and os.path.join(sroie, "box", document + ".txt")
        if transcript and os.path.exists(transcript):
            original = jpeg_width(os.path.join(sroie, document + ".jpg"))
            for pages in cached.get("passes", {}).values():
                for page in pages:
                    width = page.get("width") or original
                    reduction = max(1, round(original / width)) if original and width else 1
                    page["lines"] = scaled(lines(transcript), reduction)
            replaced += 1
        with open(os.path.join(a.out, os.path.basename(entry)), "w") as f:
            json.dump(cached, f)
    print(f"transcript_cache: {replaced} SROIE pages replaced by their transcripts in {a.out}")


if __name__ == "__main__":
    main()
