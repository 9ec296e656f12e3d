#!/usr/bin/env python3
"""Fuzzes Shoebox's intake and its PDF and image readers with mutated fixture files (`make fuzz`).

Every case is a fixture (Fixtures/receipts/*.jpg|png|pdf|xml, and TIFFs and image PDFs ImageMagick makes from them)
changed by one to three mutations: bit flips, inserted or deleted bytes, a truncation, bytes appended, or an
edited header field (a PDF's /MediaBox, /Width, /Height, /W, /H, /BitsPerComponent, /Length; a PNG's IHDR
width, height, depth and colour type, with or without a correct CRC; a JPEG's frame size; a TIFF's size,
sample and strip tags). Case N of seed S is the same file on every machine: it is made from its own generator,
seeded with "S-N".

The cases are read by shoebox-fuzz (Sources/ShoeboxFuzz) as a run reads a file up to OCR, in batches, one
process per batch. A case that kills the process (a trap, an abort, an AddressSanitizer report) or takes longer
than --timeout seconds is written to the crash folder and printed with the command that makes it again; the
batch goes on after it in a new process. A batch whose process exits non-zero after reading every case (a
LeakSanitizer report) is printed as a leak. Exit 0 when nothing crashed, hung or leaked; 1 otherwise.
"""
import argparse
import collections
import os
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Fixtures", "receipts")

# Sizes that have broken readers: zero, negative, the edges of 16, 31 and 32 bits, and beyond.
HOSTILE_NUMBERS = ["0", "-1", "1", "65535", "65536", "46341", "2147483647", "2147483648", "4294967295", "4294967296",
                   "2000000000", "99999999999999999999", "1e30", "-1e30", "1e400", "0.0001", "3.5", "-2147483648"]
HOSTILE_U32 = [0, 1, 0x7FFF, 0xFFFF, 0x10000, 46341, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 2000000000, 100000]
HOSTILE_U16 = [0, 1, 0x7FFF, 0xFFFF, 65500, 30000]


def make_seeds(work):
    """The fixture files, and TIFFs and image PDFs made from them (once per work folder)."""
    seeds = sorted(os.path.join(FIXTURES, n) for n in os.listdir(FIXTURES) if n.rsplit(".", 1)[-1] in ("jpg", "png", "pdf", "xml"))
    made = os.path.join(work, "seeds")
    os.makedirs(made, exist_ok=True)
    convert = shutil.which("convert")
    if convert is None:
        sys.exit("fuzz: ImageMagick's convert is missing (make setup)")
    png, jpg = os.path.join(FIXTURES, "eng-gb-grocer.png"), os.path.join(FIXTURES, "spa-cafeteria.jpg")
    recipes = {
        "lzw.tif": [png, "-compress", "lzw"],
        "fax.tif": [png, "-threshold", "50%", "-compress", "Group4"],
        "three.tif": [png, os.path.join(FIXTURES, "deu-supermarkt.png"), jpg, "-compress", "zip"],
        "big-endian.tif": [png, "-define", "tiff:endian=msb"],
        "gray16.png": [png, "-depth", "16", "-define", "png:bit-depth=16"],
        "gray.gray": [png, "-colorspace", "Gray", "-depth", "8"],
        "fax-strip.tif": [png, "-threshold", "50%", "-compress", "Group4", "-define", "tiff:rows-per-strip=100000",
                          "-define", "tiff:endian=lsb"],
    }
    env = dict(os.environ, MAGICK_THREAD_LIMIT="1")
    for name, args in recipes.items():
        path = os.path.join(made, name)
        if not os.path.exists(path):
            subprocess.run([convert] + args + [path], check=True, env=env)
        if not name.endswith((".gray", "-strip.tif")):
            seeds.append(path)
    # Scanned-page PDFs (ImageMagick's policy forbids writing PDF): one page, one image covering it, stored as
    # Flate gray pixels, as the JPEG file itself, and as CCITT fax data.
    width, height = (int(v) for v in subprocess.run([shutil.which("identify"), "-format", "%w %h", png], check=True,
                                                      capture_output=True, env=env).stdout.split())
    with open(os.path.join(made, "gray.gray"), "rb") as f:
        gray = f.read()
    with open(jpg, "rb") as f:
        jpeg = f.read()
    sof = re.search(rb"\xff[\xc0-\xc2]", jpeg).start()
    jh, jw = struct.unpack(">HH", jpeg[sof + 5:sof + 9])
    fax, fw, fh = fax_strip(os.path.join(made, "fax-strip.tif"))
    pdfs = {
        "flate-image.pdf": image_pdf(width, height, "DeviceGray", 8, "FlateDecode", zlib.compress(gray)),
        "jpeg-image.pdf": image_pdf(jw, jh, "DeviceRGB" if jpeg[sof + 9] == 3 else "DeviceGray", 8, "DCTDecode", jpeg),
        "fax-image.pdf": image_pdf(fw, fh, "DeviceGray", 1, "CCITTFaxDecode", fax, f"/DecodeParms<</K -1/Columns {fw}>>"),
    }
    for name, data in pdfs.items():
        path = os.path.join(made, name)
        with open(path, "wb") as f:
            f.write(data)
        seeds.append(path)
    return seeds


def fax_strip(path):
    """The one strip of a little-endian one-strip TIFF, and its width and height."""
    with open(path, "rb") as f:
        b = f.read()
    off = struct.unpack("<I", b[4:8])[0]
    tags = {}
    for i in range(struct.unpack("<H", b[off:off + 2])[0]):
        tag, typ, _, value = struct.unpack("<HHII", b[off + 2 + 12 * i:off + 14 + 12 * i])
        tags[tag] = value & 0xFFFF if typ == 3 else value
    return b[tags[273]:tags[273] + tags[279]], tags[256], tags[257]


def image_pdf(width, height, space, bits, filter, data, parms=""):
    """A one-page PDF whose page (at 72 dpi of the image, so that it is read as a scan) is the image."""
    w, h = max(1, width * 72 // 200), max(1, height * 72 // 200)
    content = f"q {w} 0 0 {h} 0 0 cm /Im0 Do Q".encode()
    objects = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
               f"<</Type/Page/Parent 2 0 R/MediaBox[0 0 {w} {h}]/Resources<</XObject<</Im0 4 0 R>>>>/Contents 5 0 R>>".encode(),
               f"<</Type/XObject/Subtype/Image/Width {width}/Height {height}/ColorSpace/{space}/BitsPerComponent {bits}"
               f"/Filter/{filter}{parms}/Length {len(data)}>>\nstream\n".encode() + data + b"\nendstream",
               f"<</Length {len(content)}>>\nstream\n".encode() + content + b"\nendstream"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode() + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += f"trailer\n<</Size {len(objects) + 1}/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def kind(data):
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tif"
    if data.lstrip(b"\xef\xbb\xbf \r\n\t").startswith(b"<"):
        return "xml"
    return "bin"


def flip(rng, b):
    for _ in range(rng.randint(1, 16)):
        i = rng.randrange(len(b))
        b[i] ^= rng.randint(1, 255)


def insert(rng, b):
    i = rng.randrange(len(b) + 1)
    if rng.random() < 0.5:
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 256)))
    else:  # a piece of the file again (repeats structure: objects, chunks, tags)
        j = rng.randrange(len(b))
        b[i:i] = b[j:j + rng.randint(1, 4096)]


def delete(rng, b):
    i = rng.randrange(len(b))
    del b[i:i + rng.randint(1, 1024)]


def truncate(rng, b):
    del b[rng.randrange(1, len(b)):]


def append(rng, b):
    b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 8192)))


def edit_pdf(rng, b):
    fields = list(re.finditer(rb"/(MediaBox|CropBox)\s*\[([^\]]*)\]|/(Width|Height|W|H|BitsPerComponent|BPC|Length|Count|Rotate|Columns|K)\s+(-?[0-9.]+)", b))
    if not fields:
        return flip(rng, b)
    m = rng.choice(fields)
    if m.group(1):
        box = " ".join(rng.choice(HOSTILE_NUMBERS + ["0", "612", "792"]) for _ in range(4))
        b[m.start(2):m.end(2)] = box.encode()
    else:
        b[m.start(4):m.end(4)] = rng.choice(HOSTILE_NUMBERS).encode()


XML_PIECES = [b"<", b">", b"/", b"=", b"\"", b"'", b"&", b";", b"&amp;", b"&#0;", b"&#x110000;", b"<![CDATA[", b"]]>",
              b"<!--", b"-->", b"<?pi x?>", b"xmlns:ram=\"\"", b"xmlns=\"urn:x\"", b"ram:", b":", b"-1", b"1e999",
              b"99999999999999999999.999", b"0.001", b"20261399", b"\u00e9".decode("unicode_escape").encode(), b"\xf0\x9f\x98\x80"]


def edit_xml(rng, b):
    """Mutations that keep the bytes UTF-8 (a flipped byte is refused before parsing): XML punctuation, entity
    and character references, odd namespaces and hostile numbers inserted; an element's span doubled or cut."""
    tags = [m.start() for m in re.finditer(rb"<", b)]
    choice = rng.choice(["insert", "insert", "double", "cut"])
    if choice == "insert" or len(tags) < 2:
        p = rng.randrange(len(b) + 1)
        b[p:p] = rng.choice(XML_PIECES)
        return
    i = rng.randrange(len(tags) - 1)
    j = rng.randrange(i + 1, min(len(tags), i + 8))
    span = bytes(b[tags[i]:tags[j]])
    if choice == "double":
        b[tags[j]:tags[j]] = span * rng.choice([1, 2, 50])
    else:
        del b[tags[i]:tags[j]]


def edit_png(rng, b):
    if len(b) < 33:
        return flip(rng, b)
    field = rng.choice(["width", "height", "both", "depth", "type"])
    if field in ("width", "both"):
        b[16:20] = struct.pack(">I", rng.choice(HOSTILE_U32))
    if field in ("height", "both"):
        b[20:24] = struct.pack(">I", rng.choice(HOSTILE_U32))
    if field == "depth":
        b[24] = rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 255])
    if field == "type":
        b[25] = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 255])
    if rng.random() < 0.8:  # mostly with a correct CRC, so that the reader believes the header
        b[29:33] = struct.pack(">I", zlib.crc32(bytes(b[12:29])) & 0xFFFFFFFF)


def edit_jpeg(rng, b):
    frames = [m.start() for m in re.finditer(rb"\xff[\xc0-\xc3]", b)]
    if not frames:
        return flip(rng, b)
    at = rng.choice(frames)
    if at + 10 > len(b):
        return flip(rng, b)
    field = rng.choice(["height", "width", "both", "components", "precision"])
    if field in ("height", "both"):
        b[at + 5:at + 7] = struct.pack(">H", rng.choice(HOSTILE_U16))
    if field in ("width", "both"):
        b[at + 7:at + 9] = struct.pack(">H", rng.choice(HOSTILE_U16))
    if field == "components":
        b[at + 9] = rng.choice([0, 1, 2, 3, 4, 5, 255])
    if field == "precision":
        b[at + 4] = rng.choice([0, 8, 12, 16, 255])


def edit_tiff(rng, b):
    if len(b) < 8:
        return flip(rng, b)
    e = "<" if b[:2] == b"II" else ">"
    off = struct.unpack(e + "I", bytes(b[4:8]))[0]
    if off + 2 > len(b):
        return flip(rng, b)
    n = struct.unpack(e + "H", bytes(b[off:off + 2]))[0]
    entries = [off + 2 + 12 * i for i in range(n) if off + 14 + 12 * i <= len(b)]
    if not entries:
        return flip(rng, b)
    wanted = {256, 257, 258, 259, 262, 273, 277, 278, 279, 284, 317, 338, 339}
    chosen = [p for p in entries if struct.unpack(e + "H", bytes(b[p:p + 2]))[0] in wanted] or entries
    p = rng.choice(chosen)
    typ, count = struct.unpack(e + "HI", bytes(b[p + 2:p + 8]))
    value = rng.choice(HOSTILE_U32 + [2, 3, 4, 5, 7, 8, 16, 32, 64])
    if rng.random() < 0.3:
        b[p + 4:p + 8] = struct.pack(e + "I", rng.choice([0, 2, 255, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF]))  # count
    elif typ == 3 and count == 1:
        b[p + 8:p + 10] = struct.pack(e + "H", value & 0xFFFF)
    else:
        b[p + 8:p + 12] = struct.pack(e + "I", value)


EDITS = {"pdf": edit_pdf, "png": edit_png, "jpg": edit_jpeg, "tif": edit_tiff, "xml": edit_xml}


def make_case(seed, number, seeds):
    """Case `number` of `seed`: (bytes, extension, what was done)."""
    rng = random.Random(f"{seed}-{number}")
    source = rng.choice(seeds)
    with open(source, "rb") as f:
        b = bytearray(f.read())
    ext = kind(b)
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not b:
            break
        name, mutate = rng.choice([("flip", flip), ("insert", insert), ("delete", delete), ("truncate", truncate),
                                   ("append", append), ("edit", EDITS.get(kind(b), flip)), ("edit", EDITS.get(kind(b), flip))])
        mutate(rng, b)
        done.append(name)
    return bytes(b), ext, os.path.basename(source) + " " + "+".join(done)


def run_batch(binary, paths, timeout, env, errors, suppressed):
    """Reads `paths` with one shoebox-fuzz process after another (its stderr in the file `errors`). Returns
    (results, problems); leaks LeakSanitizer suppressed (fuzz/lsan.supp) are added to `suppressed`."""
    results, problems = {}, []
    start = 0
    while start < len(paths):
        with open(errors, "wb") as err_file:
            proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_file, env=env,
                                    start_new_session=True)
        proc.stdin.write("".join(p + "\n" for p in paths[start:]).encode())
        proc.stdin.close()
        proc.stdin = None
        expected = start
        buffered = b""
        hung = False
        while expected < len(paths):
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            if not ready:
                hung = True
                break
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buffered += chunk
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                index, _, result = line.decode(errors="replace").partition(" ")
                results[start + int(index)] = result
                expected = start + int(index) + 1
        if hung:
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:  # a hang after the last case (at exit)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            hung = True
        with open(errors, "rb") as f:
            text = f.read().decode(errors="replace")
        # The sanitizer's or Swift's own report when there is one, else the last lines.
        marks = [text.find(m) for m in ("==ERROR", "ERROR: AddressSanitizer", "Fatal error", "Bogus memory") if m in text]
        tail = text[min(marks):][:3000] if marks else text[-3000:]
        suppressed.extend(re.findall(r"^\s*(\d+)\s+(\d+)\s+(\S+)$", text.split("Suppressions used:")[-1], re.M) if "Suppressions used:" in text else [])
        if expected < len(paths):
            problems.append(("hang" if hung else f"crash (exit {proc.returncode})", expected, tail))
            start = expected + 1  # past the case that crashed or hung
        else:
            if proc.returncode != 0 or hung:
                problems.append(("hang at exit" if hung else f"exit {proc.returncode} after the batch (leak?)", None, tail))
            start = len(paths)
    return results, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--first", type=int, default=0, help="the first case's number")
    parser.add_argument("--seed", default="15")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "shoebox-fuzz"))
    parser.add_argument("--timeout", type=float, default=60, help="seconds a case may take")
    parser.add_argument("--batch", type=int, default=500, help="cases per process")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "fuzz"))
    parser.add_argument("--only", type=int, help="make case N alone, read it, and keep it in the crash folder")
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"fuzz: {args.bin} is not built (swift build --product shoebox-fuzz)")
    seeds = make_seeds(args.work)
    cases_dir, crash_dir = os.path.join(args.work, "cases"), os.path.join(args.work, "crashes")
    shutil.rmtree(cases_dir, ignore_errors=True)
    os.makedirs(cases_dir)
    os.makedirs(crash_dir, exist_ok=True)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:exitcode=86:hard_rss_limit_mb=3000:allocator_may_return_null=0")
    env.setdefault("LSAN_OPTIONS", "exitcode=87:print_suppressions=1:suppressions=" + os.path.join(ROOT, "fuzz", "lsan.supp"))
    numbers = [args.only] if args.only is not None else list(range(args.first, args.first + args.cases))
    started = time.monotonic()
    outcomes = collections.Counter()
    found, suppressed = [], []
    for first in range(0, len(numbers), args.batch):
        batch = numbers[first:first + args.batch]
        paths, notes = [], []
        for n in batch:
            data, ext, note = make_case(args.seed, n, seeds)
            path = os.path.join(cases_dir, f"case-{n}.{ext}")
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
            notes.append(note)
        results, problems = run_batch(args.bin, paths, args.timeout, env, os.path.join(args.work, "stderr.txt"), suppressed)
        for result in results.values():
            outcomes[" ".join(result.split()[:2])] += 1
        for what, index, tail in problems:
            if index is None:
                found.append(f"{what}: cases {batch[0]}-{batch[-1]}\n"
                             f"  again: python3 fuzz/fuzz.py --seed {args.seed} --first {batch[0]} --cases {len(batch)} --bin {args.bin}\n{tail}")
                print(found[-1], file=sys.stderr, flush=True)
                continue
            n = batch[index]
            kept = os.path.join(crash_dir, f"seed-{args.seed}-case-{n}" + os.path.splitext(paths[index])[1])
            shutil.copyfile(paths[index], kept)
            found.append(f"{what}: case {n} ({notes[index]}), kept as {kept}\n"
                         f"  again: python3 fuzz/fuzz.py --seed {args.seed} --only {n} --bin {args.bin}\n{tail}")
            print(found[-1], file=sys.stderr, flush=True)
        for path in paths:
            os.remove(path)
        done = first + len(batch)
        print(f"fuzz: {done}/{len(numbers)} cases, {time.monotonic() - started:.0f} s, {len(found)} problems", file=sys.stderr, flush=True)
    elapsed = time.monotonic() - started
    print(f"fuzz: seed {args.seed}, {len(numbers)} cases in {elapsed:.0f} s with {os.path.basename(args.bin)}; "
          f"{len(found)} crashes, hangs or leaks")
    for outcome, count in outcomes.most_common():
        print(f"  {count:6d}  {outcome}")
    if suppressed:
        print(f"  known leaks suppressed (fuzz/lsan.supp): {sum(int(c) for c, _, _ in suppressed)} in "
              f"{len(suppressed)} processes, {sum(int(b) for _, b, _ in suppressed)} bytes")
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
